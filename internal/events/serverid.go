package events

// ServerIDFromEnv derives the server_id of spec 000 §10.1 from the environment:
// "dev-" followed by USER, else USERNAME, else "unknown". Pass os.Getenv.
func ServerIDFromEnv(getenv func(string) string) string {
	for _, key := range []string{"USER", "USERNAME"} {
		if name := getenv(key); name != "" {
			return "dev-" + name
		}
	}
	return "dev-unknown"
}
