//go:build js && wasm

// Command wasm is the pomdpq engine of the web page, built with GOOS=js
// GOARCH=wasm by make web into out/web/pomdpq.wasm and run in the page's
// Web Worker. It defines one global JavaScript function,
// pomdpqHandle(json), which answers a request of package engine; the answer
// and the progress of a run are posted to the page as messages
// {type: "progress", phase, done, total} and {type: "result", id, response}.
package main

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/pomdpq/pomdpq/web/engine"
)

func main() {
	// The estimates allow for the collector's doubling of the heap; near
	// the budget it collects more often instead.
	debug.SetMemoryLimit(engine.MaxMemory)
	var e engine.Engine
	post := js.Global().Get("postMessage")
	js.Global().Set("pomdpqHandle", js.FuncOf(func(this js.Value, args []js.Value) any {
		id := args[0].Int()
		var req engine.Request
		if err := json.Unmarshal([]byte(args[1].String()), &req); err != nil {
			reply(post, id, engine.Response{Error: "bad request: " + err.Error()})
			return nil
		}
		// The work runs on its own goroutine: a callback must return for
		// the worker's event loop to go on.
		go func() {
			last := time.Time{}
			progress := func(phase string, done, total int) {
				// At most 20 messages a second, and every phase change.
				if done != 0 && done != total && time.Since(last) < 50*time.Millisecond {
					return
				}
				last = time.Now()
				msg := js.Global().Get("Object").New()
				msg.Set("type", "progress")
				msg.Set("id", id)
				msg.Set("phase", phase)
				msg.Set("done", done)
				msg.Set("total", total)
				post.Invoke(msg)
			}
			reply(post, id, e.Handle(context.Background(), req, progress))
		}()
		return nil
	}))
	ready := js.Global().Get("Object").New()
	ready.Set("type", "ready")
	post.Invoke(ready)
	select {}
}

func reply(post js.Value, id int, resp engine.Response) {
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(engine.Response{Error: "internal error: " + err.Error()})
	}
	msg := js.Global().Get("Object").New()
	msg.Set("type", "result")
	msg.Set("id", id)
	msg.Set("response", string(b))
	post.Invoke(msg)
}
