package engine

// Hand-assembled WASI command modules for the engine's tests, so they need no
// toolchain. Each has the shape
//
//	(module
//	  (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
//	  (func (export "_start") BODY))

const (
	opUnreachable = 0x00
	opLoop        = 0x03
	opBr          = 0x0c
	opEnd         = 0x0b
	opCall        = 0x10
	opI32Const    = 0x41
	blockEmpty    = 0x40
)

// commandModule returns a module whose _start runs body (instructions, without
// the final end).
func commandModule(body ...byte) []byte {
	section := func(id byte, content ...byte) []byte {
		return append(append([]byte{id}, uleb(uint64(len(content)))...), content...)
	}
	name := func(s string) []byte { return append(uleb(uint64(len(s))), s...) }
	var imports []byte
	imports = append(imports, 1)
	imports = append(imports, name("wasi_snapshot_preview1")...)
	imports = append(imports, name("proc_exit")...)
	imports = append(imports, 0x00, 0x00) // a func of type 0
	exports := append(append([]byte{1}, name("_start")...), 0x00, 0x01)
	fn := append(append([]byte{0x00}, body...), opEnd) // no locals
	code := append(append([]byte{1}, uleb(uint64(len(fn)))...), fn...)

	m := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	m = append(m, section(1, 2, 0x60, 1, 0x7f, 0, 0x60, 0, 0)...) // (i32)->(), ()->()
	m = append(m, section(2, imports...)...)
	m = append(m, section(3, 1, 1)...) // one function of type 1
	m = append(m, section(7, exports...)...)
	m = append(m, section(10, code...)...)
	return m
}

// exitModule calls proc_exit(code).
func exitModule(code int32) []byte {
	return commandModule(append(append([]byte{opI32Const}, sleb(int64(code))...), opCall, 0)...)
}

// loopModule spins forever.
func loopModule() []byte { return commandModule(opLoop, blockEmpty, opBr, 0, opEnd) }

// trapModule hits unreachable.
func trapModule() []byte { return commandModule(opUnreachable) }

// returnModule returns from _start at once.
func returnModule() []byte { return commandModule() }

func uleb(v uint64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b |= 0x80
		}
		out = append(out, b)
		if v == 0 {
			return out
		}
	}
}

func sleb(v int64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}
