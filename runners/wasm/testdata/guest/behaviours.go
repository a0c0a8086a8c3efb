package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// printArgs prints each SKILL_ARG_* variable as NAME=value, sorted by name.
func printArgs() {
	var lines []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SKILL_ARG_") {
			lines = append(lines, kv)
		}
	}
	sort.Slice(lines, func(i, j int) bool { return envName(lines[i]) < envName(lines[j]) })
	for _, l := range lines {
		fmt.Println(l)
	}
}

func envName(kv string) string {
	n, _, _ := strings.Cut(kv, "=")
	return n
}

// exit3 writes one line to each stream and exits 3.
func exit3() {
	os.Stdout.WriteString("to-stdout\n")
	os.Stderr.WriteString("to-stderr\n")
	os.Exit(3)
}

// sleep prints "started" then sleeps 30 s.
func sleep() {
	os.Stdout.WriteString("started\n")
	time.Sleep(30 * time.Second)
	os.Stdout.WriteString("woke up\n")
}

// flood writes 200000 'x' to stdout and 200000 'y' to stderr.
func flood() {
	os.Stdout.Write(bytes.Repeat([]byte("x"), 200000))
	os.Stderr.Write(bytes.Repeat([]byte("y"), 200000))
}

// readStdin reads stdin to EOF and prints how many bytes it got.
func readStdin() {
	b, err := io.ReadAll(os.Stdin)
	check(err)
	fmt.Printf("read %d bytes\n", len(b))
}

// printEnv prints every environment variable as NAME=value, one a line.
func printEnv() {
	for _, kv := range os.Environ() {
		fmt.Println(kv)
	}
}
