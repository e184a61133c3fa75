// fs.js gives Go's WebAssembly runtime a small read-only, in-memory file
// system, so the demo reads its embedded Lua scripts with the same code
// as on disk. Load it after wasm_exec.js: it replaces the stub fs that
// wasm_exec.js installs (which answers every call with ENOSYS) for the
// calls that reading files makes. Go puts the files in with
// moonmindFS.put(path, bytes) before the demo starts.
"use strict";
(() => {
  const files = new Map(); // normalised path -> Uint8Array
  const open = new Map();  // fd -> { data, pos }
  let nextFD = 100;
  const norm = (p) => p.replace(/^\/+/, "").replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  const fail = (code) => { const e = new Error(code); e.code = code; return e; };
  const isDir = (p) => { p = norm(p); if (p === "" || p === ".") return true;
    for (const k of files.keys()) if (k.startsWith(p + "/")) return true; return false; };
  const stats = (p) => {
    const n = norm(p), dir = !files.has(n) && isDir(n);
    if (!files.has(n) && !dir) return null;
    const size = dir ? 0 : files.get(n).length;
    return { dev: 1, ino: 1, mode: dir ? 0o40755 : 0o100644, nlink: 1, uid: 0, gid: 0, rdev: 0, size,
      blksize: 4096, blocks: Math.ceil(size / 512), atimeMs: 0, mtimeMs: 0, ctimeMs: 0,
      isDirectory: () => dir };
  };
  globalThis.moonmindFS = { put(path, bytes) { files.set(norm(path), bytes); } };
  const fs = globalThis.fs;
  fs.open = (path, flags, mode, cb) => {
    const n = norm(path);
    if (files.has(n)) { const fd = nextFD++; open.set(fd, { data: files.get(n), pos: 0, path: n }); cb(null, fd); return; }
    if (isDir(n)) { const fd = nextFD++; open.set(fd, { data: new Uint8Array(0), pos: 0, path: n, dir: true }); cb(null, fd); return; }
    cb(fail("ENOENT"));
  };
  fs.close = (fd, cb) => { open.delete(fd); cb(null); };
  fs.fstat = (fd, cb) => { const f = open.get(fd); if (!f) { cb(fail("EBADF")); return; } cb(null, stats(f.path)); };
  fs.stat = (path, cb) => { const s = stats(path); s ? cb(null, s) : cb(fail("ENOENT")); };
  fs.lstat = fs.stat;
  fs.readdir = (path, cb) => {
    const p = norm(path), names = new Set();
    for (const k of files.keys()) {
      const rest = p === "" || p === "." ? k : (k.startsWith(p + "/") ? k.slice(p.length + 1) : null);
      if (rest !== null) names.add(rest.split("/")[0]);
    }
    cb(null, [...names]);
  };
  fs.read = (fd, buffer, offset, length, position, cb) => {
    const f = open.get(fd);
    if (!f) { cb(fail("EBADF")); return; }
    const at = position === null ? f.pos : position;
    const n = Math.max(0, Math.min(length, f.data.length - at));
    buffer.set(f.data.subarray(at, at + n), offset);
    if (position === null) f.pos += n;
    cb(null, n);
  };
  globalThis.process.cwd = () => "/";
})();
