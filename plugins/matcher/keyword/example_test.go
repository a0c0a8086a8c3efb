package keyword_test

import (
	"fmt"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

func ExampleTokenize() {
	fmt.Printf("%q\n", keyword.Tokenize("Create a React component for the authentication"))
	fmt.Printf("%q\n", keyword.Tokenize("Créer des données avec node.js"))
	// Output:
	// ["create" "react" "component" "authentication"]
	// ["créer" "données" "node" "js"]
}

func Example_referenceScore() {
	tokens := keyword.Tokenize("Set up Go authentication")
	score, matched := keyword.Score(tokens, []string{"golang", "Auth", "login"}, 5)
	fmt.Printf("%.3f %q\n", score, matched)
	// Output:
	// 0.338 ["auth"]
}

func ExampleMatcher() {
	s := keyword.New().Build([]core.MatchEntry{
		{Path: "ui/react", Keywords: []string{"react", "component"}, Priority: 1},
		{Path: "ui/vue", Keywords: []string{"vue", "component"}},
	})
	for _, m := range s.Search("a React component") {
		fmt.Printf("%s %.3f %q\n", m.Path, m.Score, m.MatchedKeywords)
	}
	// Output:
	// ui/react 1.001 ["react" "component"]
	// ui/vue 0.500 ["component"]
}
