package keyword

import (
	"reflect"
	"testing"
)

func TestExplain(t *testing.T) {
	tokens := Tokenize("React authentication for go services")
	score, hits := Explain(tokens, []string{"React", "auth", "golang", "go", "servicemesh"}, 2)
	want := []Hit{
		{Keyword: "react", Token: "react", How: "exact"},
		{Keyword: "auth", Token: "authentication", How: "token contains keyword"},
		{Keyword: "golang"},
		{Keyword: "go", Token: "go", How: "exact"},
		{Keyword: "servicemesh"}, // "services" and "servicemesh" contain neither the other: a miss
	}
	if !reflect.DeepEqual(hits, want) {
		t.Errorf("hits = %+v\nwant %+v", hits, want)
	}
	plain, _ := referenceScore(tokens, []string{"React", "auth", "golang", "go", "servicemesh"}, 2)
	if score != plain {
		t.Errorf("Explain score %v differs from referenceScore %v", score, plain)
	}
	if _, hits := Explain([]string{"auth"}, []string{"authentication"}, 0); hits[0].How != "keyword contains token" {
		t.Errorf("got %+v", hits[0])
	}
}
