package main

import "testing"

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"List Orders by Customer": "list-orders-by-customer",
		"  API v2: users/{id}  ":  "api-v2-users-id",
		"Créer un élément":        "créer-un-élément",
	} {
		if got := slugify(in); got != want {
			t.Errorf("slugify(%q) = %q, want %q", in, got, want)
		}
	}
}
