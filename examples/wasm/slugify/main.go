// Command slugify is an example WASM skill script: it turns SKILL_ARG_TITLE
// into a URL slug. Build it for the sandbox with
//
//	GOOS=wasip1 GOARCH=wasm go build -o examples/skills/api/rest/scripts/slugify.wasm ./examples/wasm/slugify
//
// (or `make examples-wasm`). It sees only its arguments, SKILL_DIR=/skill and
// the skill's files mounted read-only at /skill: no network, no host env.
package main

import (
	"fmt"
	"os"
	"strings"
	"unicode"
)

func main() {
	title := os.Getenv("SKILL_ARG_TITLE")
	if strings.TrimSpace(title) == "" {
		fmt.Fprintln(os.Stderr, "Error: title is empty")
		os.Exit(2)
	}
	fmt.Println(slugify(title))
}

// slugify lowercases letters and digits and joins the words with hyphens.
func slugify(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(words, "-")
}
