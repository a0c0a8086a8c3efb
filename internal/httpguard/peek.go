package httpguard

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// postedMessage is what the HTTP wrappers before the go-sdk look at in a
// POSTed body: the id and method of the single JSON object it holds, as
// they are written.
type postedMessage struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
}

// postedBody is a POST's body as limitBody read it, with its message parsed
// once, by the first wrapper that asks.
type postedBody struct {
	body []byte
	once sync.Once
	msg  postedMessage
	ok   bool
}

type postedBodyKey struct{}

// withPostedBody records body, already read and put back as r's Body, for
// the wrappers after limitBody.
func withPostedBody(r *http.Request, body []byte) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), postedBodyKey{}, &postedBody{body: body}))
}

// peekMessage returns the id and method of the single JSON object r's body
// holds; ok is false for an empty body, a batch or anything that does not
// parse. The body limitBody recorded is parsed once for every wrapper;
// without it, the body is read and put back. A read error is returned.
func peekMessage(r *http.Request) (msg postedMessage, ok bool, err error) {
	p, _ := r.Context().Value(postedBodyKey{}).(*postedBody)
	if p == nil {
		body, err := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			return msg, false, err
		}
		p = &postedBody{body: body}
	}
	p.once.Do(func() {
		trimmed := bytes.TrimSpace(p.body)
		p.ok = len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(trimmed, &p.msg) == nil
	})
	return p.msg, p.ok, nil
}
