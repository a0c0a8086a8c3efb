// Package sandbox is what a runner author needs of the server's script
// sandbox: the capped writer for a script's output streams and the note a cut
// stream ends with (CappedWriter, TruncationNote); the minimal environment
// of a script process (MinimalEnv, SkillDirEnv, ArgEnvPrefix); a process
// group to start a script in and to stop with it whatever it started
// (StartInGroup, TerminateGroup, KillGroup); and the confinement the exec
// runners' programs go through (Confinement, built from the operator's
// ConfineOptions and handed to runners/exec.WithConfinement; ErrUnconfinable
// when the kernel cannot confine). A custom runner built on the command's
// PluginContext.Program gets all of it without this package. CappedWriter is
// implemented here (capwriter.go); everything else forwards to
// internal/launch, adding no behaviour. It imports nothing from runners,
// plugins, the MCP SDK or wazero.
package sandbox
