package server

import "time"

// SetRefreshAnswerWait lowers (or raises) how long refresh_skills waits for
// its refresh before it answers, for tests; zero means RefreshAnswerWait.
func SetRefreshAnswerWait(s *Server, d time.Duration) {
	s.refresh.mu.Lock()
	defer s.refresh.mu.Unlock()
	s.refresh.wait = d
}
