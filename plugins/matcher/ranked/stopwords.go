package ranked

import "strings"

// stopwords are English function words, the words of a request to an
// assistant ("please help me…", "I want to…") and contraction leftovers: they
// say nothing about which skill fits.
var stopwords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`
a an the and or but nor so if then than else of to in on at by for from with without into onto
over under about above below between through during before after up down out off again further
is are was were be been being am do does did doing done have has had having will would shall
should can could may might must i me my mine myself we us our ours you your yours he him his she
her it its they them their theirs this that these those there here what which who whom whose
when where why how all any both each few more most other some such no not only own same too very
just also as via per etc e g eg ie s t d ll re ve m o y
use using used please help want wanna need needs let lets like would could something someone anything thing
things way ways get got going make sure can't dont don't im i'm
`) {
		m[w] = struct{}{}
	}
	return m
}()

// isStop reports whether w (a lowercased word) says nothing about which skill
// fits: a stop word, or a number alone ("5" of "5%", "2" and "4" of "2.4"),
// which matches whatever skill quotes a version or a count.
func isStop(w string) bool {
	if _, stop := stopwords[w]; stop {
		return true
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
