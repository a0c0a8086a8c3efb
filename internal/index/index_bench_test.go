package index_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// benchSizes are the corpus sizes of issue 9.
var benchSizes = []int{100, 1000, 10000}

// built caches, by corpus size, an index rebuilt once, so that benchmarks of
// reads do not each pay a rebuild.
var built sync.Map // int → *index.Snapshot

// benchSnapshot returns a snapshot of the corpus of n skills, built once per process.
func benchSnapshot(b *testing.B, n int) (*corpus.Corpus, *index.Snapshot) {
	b.Helper()
	c, dir := benchCorpus(b, n)
	if sn, ok := built.Load(n); ok {
		return c, sn.(*index.Snapshot)
	}
	sn, err := index.New(index.Options{Root: dir, Matcher: keyword.New()}).Rebuild(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	built.Store(n, sn)
	return c, sn
}

// benchCorpus returns the cached corpus of n skills and its directory.
func benchCorpus(b *testing.B, n int) (*corpus.Corpus, string) {
	b.Helper()
	c, dir, err := corpus.Cached("", corpus.Options{Skills: n})
	if err != nil {
		b.Fatal(err)
	}
	return c, dir
}

// BenchmarkBuild times a full rebuild: discovery, reading and parsing every
// skill file, parents, resources and the matcher's index, and the walks of the
// resource directories that Problems does (each walked only when asked for).
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			_, dir := benchCorpus(b, n)
			benchBuild(b, index.New(index.Options{Root: dir, Matcher: keyword.New()}))
		})
	}
}

// BenchmarkBuildRanked is BenchmarkBuild with the ranked matcher, whose index
// (terms of six fields, IDF, BM25F weights) is built with each snapshot
// (issue 14: at most 20% slower than BenchmarkBuild).
func BenchmarkBuildRanked(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			_, dir := benchCorpus(b, n)
			benchBuild(b, index.New(index.Options{Root: dir, Matcher: ranked.New()}))
		})
	}
}

// benchBuild rebuilds ix in b.Loop.
func benchBuild(b *testing.B, ix *index.Index) {
	b.ReportAllocs()
	for b.Loop() {
		sn, err := ix.Rebuild(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		sn.Problems() // walks the resource directories
	}
}

// BenchmarkRebuildUnderReads times Rebuild while two goroutines answer
// get_skill-like reads (search, rank, content, assets) on whatever snapshot is
// current, and reports the reads served per second meanwhile.
func BenchmarkRebuildUnderReads(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			c, dir := benchCorpus(b, n)
			ix := index.New(index.Options{Root: dir, Matcher: keyword.New()})
			if _, err := ix.Rebuild(context.Background()); err != nil {
				b.Fatal(err)
			}
			ctxs := pickContexts(b, c, ix.Snapshot())
			var reads atomic.Int64
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						serve(ix.Snapshot(), ctxs.Single)
						reads.Add(1)
					}
				})
			}
			b.ReportAllocs()
			for b.Loop() {
				sn, err := ix.Rebuild(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				sn.Problems() // walks the resource directories
			}
			close(stop)
			wg.Wait()
			b.ReportMetric(float64(reads.Load())/b.Elapsed().Seconds(), "reads/s")
		})
	}
}

// BenchmarkGetSkill times what the index does for one get_skill call:
// search, rank, then for a single match the aggregated content and the assets.
func BenchmarkGetSkill(b *testing.B) {
	for _, n := range benchSizes {
		c, snap := benchSnapshot(b, n)
		ctxs := pickContexts(b, c, snap)
		for _, kind := range []struct{ name, context string }{
			{"single", ctxs.Single}, {"ambiguous", ctxs.Ambiguous}, {"no-match", ctxs.NoMatch},
		} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, kind.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					serve(snap, kind.context)
				}
			})
		}
	}
}

// BenchmarkTree times the whole list_skills tree (before JSON encoding).
func BenchmarkTree(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			_, snap := benchSnapshot(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if len(snap.Tree("")) == 0 {
					b.Fatal("empty tree")
				}
			}
		})
	}
}

// BenchmarkGetAsset times finding a declared asset through the chain and
// reading it confined to its resource directory.
func BenchmarkGetAsset(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			c, snap := benchSnapshot(b, n)
			owner, file := assetOf(b, c)
			s, _ := snap.Get(owner)
			b.ReportAllocs()
			for b.Loop() {
				found, err := snap.FindAsset(s, file)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := snap.ReadFile(found.Skill, found.Asset.File, 10<<20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// serve is the index part of a get_skill call.
func serve(snap *index.Snapshot, context string) {
	r := core.SearchRank(snap.Searcher(), context, config.Default().Matching.Rank())
	if r.Outcome != core.SingleMatch {
		return
	}
	if s, ok := snap.Get(r.Matches[0].Path); ok {
		if _, err := snap.Content(s); err != nil {
			panic(err)
		}
		snap.AssetsFor(s)
	}
}

func pickContexts(b *testing.B, c *corpus.Corpus, snap *index.Snapshot) corpus.Contexts {
	b.Helper()
	cfg := config.Default().Matching.Rank()
	ctxs, err := c.PickContexts(func(ctx string) core.Ranking { return core.Rank(snap.Searcher().Search(ctx), cfg) })
	if err != nil {
		b.Fatal(err)
	}
	return ctxs
}

// assetOf returns a tree skill with a declared asset, and that asset.
func assetOf(b *testing.B, c *corpus.Corpus) (string, string) {
	b.Helper()
	for _, s := range c.Skills[len(c.Skills)/2:] {
		if s.Format == corpus.FormatTree && len(s.Assets) > 0 {
			return s.Path, s.Assets[0]
		}
	}
	b.Fatal("no tree skill with an asset")
	return "", ""
}

// BenchmarkDigest times the manifest digest (index.Digest, SHA-256) of every
// file of the corpus, read beforehand: the hashing that computing every
// manifest of a snapshot does (on request, once per snapshot), without the
// reading.
func BenchmarkDigest(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("skills=%d", n), func(b *testing.B) {
			_, dir := benchCorpus(b, n)
			var files [][]byte
			var total int64
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || !d.Type().IsRegular() {
					return err
				}
				data, err := os.ReadFile(p)
				files, total = append(files, data), total+int64(len(data))
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					if len(index.Digest(data)) == 0 {
						b.Fatal("empty digest")
					}
				}
			}
		})
	}
}
