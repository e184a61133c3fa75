// Command serve serves a folder over HTTP on 127.0.0.1 only, for the
// demo's WebAssembly build (.ci/web):
//
//	go run ./demo/web/serve [-addr 127.0.0.1:8765] [-dir FOLDER]
//
// It prints "serving FOLDER on http://ADDR/" once it listens. A .wasm file
// with a .wasm.gz beside it is sent compressed to browsers that accept gzip.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8765", "the `address` to listen on; the host must be 127.0.0.1 or localhost")
	dir := flag.String("dir", "web", "the `folder` to serve")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || (host != "127.0.0.1" && host != "localhost") {
		fmt.Fprintf(os.Stderr, "serve: -addr %q: want 127.0.0.1:PORT\n", *addr)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	fmt.Printf("serving %s on http://%s/\n", *dir, ln.Addr())
	files := http.FileServer(http.Dir(*dir))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
			// A FILE.wasm.gz beside it goes out compressed to a browser
			// that takes gzip: a quarter of the bytes.
			gz := filepath.Join(*dir, filepath.FromSlash(path.Clean("/"+r.URL.Path))) + ".gz"
			if f, err := os.Open(gz); err == nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				defer f.Close()
				if fi, err := f.Stat(); err == nil {
					w.Header().Set("Content-Encoding", "gzip")
					http.ServeContent(w, r, "", fi.ModTime(), f)
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
	if err := http.Serve(ln, h); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}
