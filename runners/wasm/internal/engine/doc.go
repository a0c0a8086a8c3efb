// Package engine owns the wazero engine under the .wasm runner: one wazero
// runtime per Engine, made at the first run, with its compile cache (memory
// and disk), the memory limit, the wall-clock limit that stops even a
// sleeping guest, and the confined file systems a guest sees (the skill
// read-only at SkillMount, the working directory at CwdMount, the
// operator's read-only mounts; symlinks cannot leave a mount and the guest
// cannot create any; at most MaxOpenFiles open at once per run). It is
// internal to runners/wasm: the runner's options are its public face.
package engine
