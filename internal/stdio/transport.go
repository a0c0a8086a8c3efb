package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameBytes bounds one inbound line; a longer line is answered with a parse
// error and skipped.
const MaxFrameBytes = 16 << 20

// DrainTimeout bounds how long, after stdin ends, the connection waits for the
// answers to requests it has already read: a client that pipes requests and
// closes stdin gets them, and shutdown still takes under a second.
const DrainTimeout = 750 * time.Millisecond

// LineTransport is a newline-delimited JSON-RPC transport over a reader and a
// writer (stdin and stdout for a stdio server). Unlike the go-sdk's stdio
// transport, which ends the session on a frame that is not valid JSON, it answers
// such a line with a JSON-RPC error (-32700 parse error, -32600 invalid request),
// logs a warning, and goes on reading. Every request gets exactly one answer,
// carrying its own id: a request reusing the id of one still in flight, or
// with an id the answer could not carry exactly (1.5, a 30-digit integer), is
// answered with -32600 at once instead of being dropped or renumbered.
type LineTransport struct {
	// In is read line by line; Out receives one JSON message per line.
	In  io.ReadCloser
	Out io.Writer
	// Logger receives a warning per rejected line.
	Logger hclog.Logger
	// DrainAfter, when set, is closed once the requests read can be answered
	// (Server.Loaded): when In ends, the wait for the answers starts only
	// then, so a piped batch is answered however long the index takes.
	DrainAfter <-chan struct{}
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	log := t.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	c := &lineConn{in: t.In, out: t.Out, log: log, drainAfter: t.DrainAfter, incoming: make(chan readResult), closed: make(chan struct{}), pending: map[jsonrpc.ID]bool{},
		deferred: deferralsOf(ctx)}
	go c.readLoop()
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type lineConn struct {
	in         io.ReadCloser
	out        io.Writer
	log        hclog.Logger
	drainAfter <-chan struct{} // nil: drain at once
	writeMu    sync.Mutex
	incoming   chan readResult
	closed     chan struct{}
	once       sync.Once

	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]bool // ids of requests read and not yet answered
	writing   atomic.Int32        // answers being written

	deferred *deferrals // results written in place of their placeholders; nil for none
}

func (c *lineConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, tooLong, err := readLine(r, MaxFrameBytes)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg, ok := c.decode(line, tooLong); ok {
				if !c.deliver(readResult{msg: msg}) {
					return
				}
			}
		}
		if err != nil {
			c.drain(DrainTimeout)
			c.deliver(readResult{err: err})
			return
		}
	}
}

// drain waits, at most timeout, until every request already read has been
// answered, so the end of stdin does not drop answers the client still reads.
// The timeout starts once drainAfter is closed.
func (c *lineConn) drain(timeout time.Duration) {
	if c.drainAfter != nil {
		select {
		case <-c.drainAfter:
		case <-c.closed:
			return
		}
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 0 && c.writing.Load() == 0 {
			return
		}
		select {
		case <-c.closed:
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
	c.log.Debug("stdin ended with requests still unanswered")
}

// admit records a request read from the client as in flight. A request whose
// id is already in flight reports false: the go-sdk would drop it without an
// answer, so the transport answers it with an error instead.
func (c *lineConn) admit(msg jsonrpc.Message) bool {
	m, ok := msg.(*jsonrpc.Request)
	if !ok || !m.ID.IsValid() {
		return true
	}
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	if c.pending[m.ID] {
		return false
	}
	c.pending[m.ID] = true
	return true
}

// answered forgets the request msg answers, before the answer is written: the
// client may reuse the id as soon as it reads the answer (the go-sdk frees it
// in the same order). writing counts the answer until it is written, so drain
// still waits for it.
func (c *lineConn) answered(msg jsonrpc.Message) {
	m, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	delete(c.pending, m.ID)
}

// decode turns one line into a message, or answers it with an error and reports
// false. A well-formed message takes decodeFast; whatever it is not sure of
// takes the go-sdk's decoder, behind the checks that choose the error code.
func (c *lineConn) decode(line []byte, tooLong bool) (jsonrpc.Message, bool) {
	line = bytes.TrimSpace(line)
	if tooLong {
		c.reject(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: frame longer than %d bytes", MaxFrameBytes))
		return nil, false
	}
	if msg, ok := decodeFast(line); ok {
		return msg, c.admitOrReject(msg)
	}
	if !json.Valid(line) {
		c.reject(nil, jsonrpc.CodeParseError, "Parse error: the line is not valid JSON")
		return nil, false
	}
	if line[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported")
		return nil, false
	}
	if reason := CheckID(line); reason != "" {
		c.reject(nil, jsonrpc.CodeInvalidRequest, reason)
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var id json.RawMessage
		if ids := idMembers(line); len(ids) == 1 {
			id = ids[0]
		}
		c.reject(id, jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		return nil, false
	}
	return msg, c.admitOrReject(msg)
}

// admitOrReject admits msg, or answers it with an error when its id is
// already in flight and reports false.
func (c *lineConn) admitOrReject(msg jsonrpc.Message) bool {
	if c.admit(msg) {
		return true
	}
	id, _ := json.Marshal(msg.(*jsonrpc.Request).ID.Raw())
	c.reject(id, jsonrpc.CodeInvalidRequest, "Invalid Request: id "+clip(string(id), 40)+
		" is already used by a request in flight; every request in flight needs its own id")
	return false
}

// reject writes an error response for a line that could not be read as a message.
func (c *lineConn) reject(id json.RawMessage, code int64, message string) {
	c.log.Warn("rejected an inbound frame", "code", code, "reason", message)
	if parsed, ok := exactID(id); !ok || !parsed.IsValid() {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	_ = c.writeLine(append(body, '\n'))
}

func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads up to a newline. A line longer than max is consumed to its end
// and reported as tooLong.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case r := <-c.incoming:
		return r.msg, r.err
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	c.writing.Add(1)
	defer c.writing.Add(-1)
	c.answered(msg)
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
		if std := StandardError(r.Error); std != r.Error {
			answer := *r
			answer.Error = std
			msg = &answer
		}
	}
	return c.writeMessage(msg)
}

// maxPooledLine bounds the buffers kept in linePool, so one huge answer does
// not stay allocated for the life of the process.
const maxPooledLine = 1 << 20

// linePool holds the buffers appendFastHead encodes answers into.
var linePool = sync.Pool{New: func() any { return new([]byte) }}

// writeMessage writes msg and its newline in one Write, so the line reaches a
// pipe in one system call and a concurrent write can never split it (a result
// of largeRaw bytes or more is written in three, under the same lock). Answers
// and notifications appendFastHead can build are written from a pooled buffer
// without re-marshaling their raw payload; the rest take EncodeMessage, whose
// result has room for the newline its encoder wrote and it trimmed.
func (c *lineConn) writeMessage(msg jsonrpc.Message) error {
	bufp := linePool.Get().(*[]byte)
	defer func() {
		if cap(*bufp) <= maxPooledLine {
			linePool.Put(bufp)
		}
	}()
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil {
		if w := c.deferred.take(r.Result); w != nil {
			return c.writeDeferred(r, w)
		}
	}
	head, raw, ok := appendFastHead((*bufp)[:0], msg)
	if ok && len(raw) >= largeRaw {
		// a large answer (a whole-tree list_skills) is written from where
		// it lies, not copied into one more buffer of its size
		*bufp = head
		return c.writeLine(head, raw, []byte("}\n"))
	}
	var line []byte
	if ok {
		line = append(append(append(head, raw...), '}'), '\n')
		*bufp = line
	} else {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			if data, err = c.unencodable(msg, err); err != nil {
				return err
			}
		}
		line = append(data, '\n')
	}
	return c.writeLine(line)
}

// unencodable is what is written in place of an answer that cannot be
// encoded (an error whose data, or a result, is not valid JSON): a -32603
// answer with the request's id, so the request is answered and the session
// goes on. Writing nothing and returning the error ended the session. Any
// other message is reported as an error.
func (c *lineConn) unencodable(msg jsonrpc.Message, err error) ([]byte, error) {
	r, ok := msg.(*jsonrpc.Response)
	if !ok {
		return nil, fmt.Errorf("encoding message: %w", err)
	}
	c.log.Warn("an answer could not be encoded; answering with an internal error", "error", err)
	answer := &jsonrpc.Response{ID: r.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
		Message: "internal error: the answer could not be encoded as JSON"}}
	if r.Error != nil {
		var wire *jsonrpc.Error
		if errors.As(r.Error, &wire) {
			answer.Error = &jsonrpc.Error{Code: wire.Code, Message: wire.Message} // its data was the problem
		}
	}
	data, err2 := jsonrpc.EncodeMessage(answer)
	if err2 != nil {
		return nil, fmt.Errorf("encoding message: %w", err)
	}
	return data, nil
}

// writeDeferred writes the response r whose result is the placeholder of
// w's: with the bytes w writes in its place, written through a buffer of
// deferredBuffer bytes under the write lock. A response appendFastHead cannot
// write (an id it does not take as it is) has the result built in memory and
// takes EncodeMessage.
func (c *lineConn) writeDeferred(r *jsonrpc.Response, w WriteFunc) error {
	head, _, ok := appendFastHead(nil, r)
	if !ok {
		var b bytes.Buffer
		bw := bufio.NewWriter(&b)
		w(bw)
		_ = bw.Flush() // a bytes.Buffer takes every write
		answer := *r
		answer.Result = b.Bytes()
		data, err := jsonrpc.EncodeMessage(&answer)
		if err != nil {
			return fmt.Errorf("encoding message: %w", err)
		}
		return c.writeLine(append(data, '\n'))
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	bw := bufio.NewWriterSize(c.out, deferredBuffer)
	_, _ = bw.Write(head) // bufio's errors are sticky: Flush returns the first
	w(bw)
	_, _ = bw.WriteString("}\n")
	return bw.Flush()
}

// deferredBuffer is the buffer a deferred result is written through: a
// pipe's capacity, so that each write fills it.
const deferredBuffer = 64 << 10

// largeRaw is the size of a raw result from which writeMessage writes the
// line in three writes instead of copying the result into its buffer.
const largeRaw = 256 << 10

// writeLine writes one line, newline included, given in one or more parts:
// under writeMu, so no other line of this connection comes between them.
func (c *lineConn) writeLine(parts ...[]byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	for _, p := range parts {
		if _, err := c.out.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		err = c.in.Close()
	})
	return err
}

// SessionID implements mcp.Connection; stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
