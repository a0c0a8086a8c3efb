package wasmproc

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/skills-mcp/skills-mcp/internal/childproc"
)

// HelloTimeout bounds the wait for a new helper's answer to the handshake:
// a helper answers it at once, so this only ends one that never does (a
// program of that name that is not the helper) instead of waiting for it.
const HelloTimeout = 30 * time.Second

// greet is the handshake with the helper h just started from path: it
// sends this server's Hello and reads the helper's, and returns an error
// wrapping childproc.ErrMismatch, naming both builds and path, when the
// helper is of another build or older than the handshake. On any error h is
// killed.
func (r *Runner) greet(ctx context.Context, h *helper, path string) error {
	want := childproc.NewHello(Protocol)
	line, err := json.Marshal(Request{Hello: &want})
	if err != nil {
		h.kill()
		return err
	}
	if _, err := h.stdin.Write(append(line, '\n')); err != nil {
		h.kill()
		return fmt.Errorf("greeting %s at %s: %w", HelperName, path, err)
	}
	type read struct {
		line []byte
		err  error
	}
	answer := make(chan read, 1)
	go func() {
		b, err := childproc.ReadLine(h.stdout, childproc.MaxAnswerBytes, HelperName)
		answer <- read{b, err}
	}()
	t := time.NewTimer(HelloTimeout)
	defer t.Stop()
	select {
	case a := <-answer:
		var resp Response
		if err := json.Unmarshal(a.line, &resp); err != nil {
			h.kill()
			if a.err != nil {
				return fmt.Errorf("%s at %s did not answer the handshake: %w", HelperName, path, a.err)
			}
			return fmt.Errorf("%s at %s answered the handshake with %.100q: %v", HelperName, path, a.line, err)
		}
		if err := childproc.CheckHelper(HelperName, path, want, resp.Hello); err != nil {
			h.kill()
			return err
		}
		return nil
	case <-ctx.Done():
		h.kill()
		return fmt.Errorf("greeting %s at %s: %w", HelperName, path, ctx.Err())
	case <-t.C:
		h.kill()
		return fmt.Errorf("%s at %s did not answer the handshake within %s", HelperName, path, HelloTimeout)
	}
}
