package skillscmd

import "github.com/hashicorp/go-hclog"

// envRef is SKILLS_REF: a tag or a full commit hash git mode stays at.
const envRef = "SKILLS_REF"

// logPin says at start what git mode follows: the pin wins over the branch,
// which is then not fetched at all.
func logPin(log hclog.Logger, ref, branch string) {
	switch {
	case ref != "" && branch != "":
		log.Warn("SKILLS_REF and SKILLS_BRANCH are both set: SKILLS_REF wins, the copy stays at the pin and SKILLS_BRANCH is ignored",
			"ref", ref, "branch", branch)
	case ref != "":
		log.Info("the content repo is pinned: it moves only when SKILLS_REF changes", "ref", ref)
	}
}
