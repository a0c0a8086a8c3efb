package ranked_test

import (
	"math"
	"slices"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// neighbours are near neighbours as public collections hold them.
var neighbours = []core.MatchEntry{
	{Path: "docs/pdf", Name: "pdf", Description: "Extract text and tables from PDF files, merge and split documents, create new PDFs."},
	{Path: "docs/pdf-forms", Name: "pdf-forms", Description: "Fill in PDF forms: list the fields of an AcroForm, set values and flatten the form."},
	{Path: "docs/docx", Name: "docx", Description: "Create and edit Word documents with tracked changes and comments."},
	{Path: "apps/googlecalendar-automation", Name: "googlecalendar-automation", Description: "Automate calendar tasks: create events, find free slots."},
	{Path: "apps/googlemeet-automation", Name: "googlemeet-automation", Description: "Automate Google Meet: schedule meetings and events."},
	{Path: "perf/performance", Name: "performance", Description: "Profile slow code and find the bottleneck."},
	{Path: "ops/dockerfile-optimizer", Name: "dockerfile-optimizer", Description: "Make container images small: multi-stage builds, layer caching."},
	{Path: "ops/compose", Name: "compose", Description: "Run several docker containers together on a laptop."},
	{Path: "ops/deploy", Name: "deploy", Keywords: []string{"rollout"}, Description: "Deployment of services to production.", Priority: 2},
}

func TestRanking(t *testing.T) {
	s := ranked.New().Build(neighbours)
	cfg := config.Default().Matching.Rank()
	tests := []struct {
		context string
		want    string // first of the ranking; "" for no match
		outcome core.Outcome
	}{
		{"fill in this PDF form and flatten it", "docs/pdf-forms", core.SingleMatch},
		{"pdf", "docs/pdf", core.SingleMatch},                                                      // exact name wins outright over pdf-forms
		{"PDF-Forms", "docs/pdf-forms", core.SingleMatch},                                          // exact name, folded
		{"docs/docx", "docs/docx", core.SingleMatch},                                               // exact path
		{"add an event to my google calendar", "apps/googlecalendar-automation", core.SingleMatch}, // compound
		{"form", "docs/pdf-forms", core.SingleMatch},                                               // whole words: form is not in performance
		{"deploying the service", "ops/deploy", core.SingleMatch},                                  // stemming
		{"slim down the docker image", "ops/dockerfile-optimizer", core.SingleMatch},               // a name of two known words holds both
		{"book me a flight", "", core.NoMatch},
		{"the and of please", "", core.NoMatch},
	}
	for _, tt := range tests {
		r := core.SearchRank(s, tt.context, cfg)
		got := ""
		if len(r.Matches) > 0 {
			got = r.Matches[0].Path
		}
		if got != tt.want || r.Outcome != tt.outcome {
			t.Errorf("%q: got %q (outcome %v), want %q (outcome %v)", tt.context, got, r.Outcome, tt.want, tt.outcome)
		}
	}
}

// TestConfidences: a score is the share of the request's weight the skill
// covers, so it means the same across requests: words no skill holds lower
// it, an exact name is 1, priority adds its thousandths, and a catalogue
// larger than ReferenceSize scales it down by the logarithm of its size.
func TestConfidences(t *testing.T) {
	s := ranked.New().Build(neighbours)
	if !core.IsCalibrated(s) {
		t.Fatal("the ranked searcher does not report confidences")
	}
	ms := s.Search("merge pdf documents")
	if len(ms) < 2 || ms[0].Path != "docs/pdf" || ms[0].Score >= 1 || ms[0].Score <= 0.3 || ms[1].Score >= ms[0].Score || ms[1].Score <= 0 {
		t.Fatalf("Search = %+v; want docs/pdf first, covering most of the request but not all", ms)
	}
	// The same skill for a request half of which no skill knows covers less of it.
	if off := s.Search("merge pdf documents zebra giraffe"); len(off) == 0 || off[0].Path != "docs/pdf" || off[0].Score >= ms[0].Score/2 {
		t.Errorf("with two unknown words: %+v; want docs/pdf under half of %v", off, ms[0].Score)
	}
	lenient := ranked.NewWith(ranked.Options{UnknownWeight: 1e-9}).Build(neighbours)
	if off := lenient.Search("merge pdf documents zebra giraffe"); len(off) == 0 || math.Abs(off[0].Score-ms[0].Score) > 1e-6 {
		t.Errorf("UnknownWeight ~0: %+v; want unknown words to weigh nothing (%v)", off, ms[0].Score)
	}
	// Priority: the same catalogue without it scores 0.002 less.
	noPriority := slices.Clone(neighbours)
	noPriority[len(noPriority)-1].Priority = 0
	with, without := s.Search("deploy the service"), ranked.New().Build(noPriority).Search("deploy the service")
	if len(with) == 0 || len(without) == 0 || with[0].Path != "ops/deploy" || math.Abs(with[0].Score-without[0].Score-0.002) > 1e-12 {
		t.Errorf("priority: %+v against %+v, want 0.002 more", with, without)
	}
	ms = s.Search("pdf")
	if ms[0].Path != "docs/pdf" || ms[0].Score != 1 {
		t.Errorf("exact name: %+v, want docs/pdf at 1", ms)
	}
	for _, m := range ms[1:] {
		if m.Score > 0.5 {
			t.Errorf("after an exact hit, %s scores %v, want at most half", m.Path, m.Score)
		}
	}
	if got := ms[0].MatchedKeywords; len(got) != 1 || got[0] != "pdf" {
		t.Errorf("matched terms %q, want [pdf]", got)
	}
	// Nine skills: ReferenceSize 9 leaves the share; 2 and the default (300)
	// multiply its odds by f = ln(ReferenceSize)/ln 9.
	share := ms0(t, ranked.NewWith(ranked.Options{ReferenceSize: 9}).Build(neighbours))
	for _, ref := range []float64{2, 300} {
		got := ms0(t, ranked.NewWith(ranked.Options{ReferenceSize: ref}).Build(neighbours))
		f := math.Log(ref) / math.Log(float64(len(neighbours)))
		if want := f * share / (1 + (f-1)*share); math.Abs(got-want) > 1e-9 {
			t.Errorf("ReferenceSize %v: %v, want %v (share %v)", ref, got, want, share)
		}
	}
	if got := ms0(t, s); got <= share || got >= 1 {
		t.Errorf("nine skills, default ReferenceSize: %v, want above the share %v and under 1", got, share)
	}
}

// ms0 is the first score for "merge pdf documents".
func ms0(t *testing.T, s core.Searcher) float64 {
	t.Helper()
	ms := s.Search("merge pdf documents")
	if len(ms) == 0 {
		t.Fatal("no match")
	}
	return ms[0].Score
}

func TestExplain(t *testing.T) {
	s := ranked.New().Build(neighbours).(core.Explainer)
	cs := s.Explain("fill the pdf form, then flatten it for the zebra", "docs/pdf-forms")
	fields := map[string]bool{}
	var missing []string
	total := 0.0
	for _, c := range cs {
		if c.Field == "" {
			missing = append(missing, c.Term)
			continue
		}
		fields[c.Term+"/"+c.Field] = true
		total += c.Score
	}
	if !fields["pdf/name"] || !fields["form/name"] || !fields["flatten/description"] {
		t.Errorf("contributions %+v: want pdf and form in name, flatten in description", cs)
	}
	if len(missing) != 1 || missing[0] != "zebra" {
		t.Errorf("missing terms %q, want [zebra]", missing)
	}
	if total <= 0 {
		t.Errorf("contributions add up to %v", total)
	}
	if cs := s.Explain("pdf", "docs/pdf"); len(cs) == 0 || cs[0].Field != "exact" {
		t.Errorf("exact hit: %+v, want it first", cs)
	}
	if cs := s.Explain("pdf", "nope"); cs != nil {
		t.Errorf("unknown path: %+v", cs)
	}
}

// TestSameNameTies: another collection's skill of the winner's name scoring
// at least half of it is listed with it (ambiguous), in its order; a skill
// of the same name in the winner's own collection keeps its score.
func TestSameNameTies(t *testing.T) {
	entries := []core.MatchEntry{
		{Path: "anthropic/pdf", Name: "pdf", Description: "Extract text and tables from PDF files, merge and split documents, fill forms."},
		{Path: "composio/pdf", Name: "pdf", Description: "A toolkit for PDF files and their pages: extract tables."},
		{Path: "composio/docs/new-relic", Name: "new-relic", Description: "Query New Relic metrics and alerts for a service."},
		{Path: "composio/docs/new_relic", Name: "new_relic", Description: "New Relic."},
		{Path: "science/csv", Name: "csv", Description: "Clean CSV files and merge tables."},
	}
	s := ranked.New().Build(entries)
	cfg := config.Default().Matching.Rank()
	ms := s.Search("extract the tables of a pdf and merge documents")
	r := core.RankFor(s, ms, cfg)
	if r.Outcome != core.Ambiguous || r.Matches[0].Path != "anthropic/pdf" || r.Matches[1].Path != "composio/pdf" {
		t.Logf("off: %+v", ranked.NewWith(ranked.Options{SameName: 1}).Build(entries).Search("extract the tables of a pdf and merge documents"))
		t.Fatalf("ranking %+v, want ambiguous, anthropic/pdf then composio/pdf", r)
	}
	if r.Matches[1].Score >= r.Matches[0].Score || r.Matches[0].Score-r.Matches[1].Score > 0.001 {
		t.Errorf("scores %v and %v, want the second within a thousandth under the first", r.Matches[0].Score, r.Matches[1].Score)
	}
	off := ranked.NewWith(ranked.Options{SameName: 1}).Build(entries)
	if r := core.SearchRank(off, "extract the tables of a pdf and merge documents", cfg); r.Outcome != core.SingleMatch {
		t.Errorf("SameName 1: %+v, want the scores alone to decide", r)
	}
	ms = s.Search("query new relic metrics for a service")
	if len(ms) < 2 || ms[0].Path != "composio/docs/new-relic" || ms[1].Score > 0.9 {
		t.Errorf("same name in one collection: %+v, want new_relic at its own score", ms)
	}
}
