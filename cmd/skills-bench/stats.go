package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"
)

// percentile is the p-th percentile (nearest rank) of ds; 0 for none.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := (p*len(s) + 99) / 100 // ceil(p/100 * n)
	return s[min(max(rank, 1), len(s))-1]
}

// median is the median of xs (the mean of the middle two for an even count); 0 for none.
func median[T int64 | float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// treeSize counts the regular files under dir and their bytes.
func treeSize(dir string) (files int, bytes int64, err error) {
	err = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += fi.Size()
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("measuring %s: %w", dir, err)
	}
	return files, bytes, nil
}
