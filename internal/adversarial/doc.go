// Package adversarial holds profan's adversarial trial: about 1,600
// careless and hostile inputs, databases, command lines and situations,
// each run in a process of its own (the test binary re-executed as profan)
// under a time and memory watch, and checked for what the input contract
// promises: no panic, the expected exit code, no silent loss (a damaged
// input is refused with file:line, or reads exactly as the intact input
// it stands for), bounded memory and time, no raw control or bidi
// character in any output, a database unchanged by a failed command.
//
// `go test ./internal/adversarial` runs a seeded subset;
// `go test ./internal/adversarial -adversarial -v` runs the whole trial
// (a few minutes on two cores) and -adversarial.report FILE writes its
// tally as Markdown. docs/adversarial.md keeps the last one.
package adversarial
