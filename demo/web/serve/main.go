// Command serve serves a folder over HTTP on 127.0.0.1 only, for the
// demo's WebAssembly build (.ci/web):
//
//	go run ./demo/web/serve [-addr 127.0.0.1:8765] [-dir FOLDER]
//
// It prints "serving FOLDER on http://ADDR/" once it listens.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
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
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	})
	if err := http.Serve(ln, h); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}
