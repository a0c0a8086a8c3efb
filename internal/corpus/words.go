package corpus

// techWords are the shared keyword vocabulary, most common first: Plan draws
// from it with a Zipf law, so early words recur across many skills. Some are
// substrings of others (auth / authentication / oauth, react / reactjs), as in
// real content repositories, so the bidirectional containment rule of spec 000
// §5.2 has work to do.
var techWords = []string{
	"api", "test", "deploy", "auth", "database", "react", "service", "config",
	"security", "migration", "component", "performance", "logging", "cache",
	"docker", "kubernetes", "python", "typescript", "golang", "javascript",
	"authentication", "authorization", "oauth", "token", "session", "schema",
	"query", "index", "postgres", "mysql", "redis", "kafka", "queue", "event",
	"stream", "batch", "pipeline", "workflow", "release", "rollback", "monitoring",
	"alerting", "metrics", "tracing", "dashboard", "incident", "oncall", "backup",
	"restore", "storage", "bucket", "upload", "download", "payment", "billing",
	"invoice", "checkout", "cart", "order", "customer", "account", "profile",
	"user", "permission", "role", "audit", "compliance", "privacy", "encryption",
	"secret", "vault", "certificate", "network", "dns", "proxy", "gateway",
	"loadbalancer", "firewall", "terraform", "ansible", "helm", "chart", "lint",
	"format", "review", "refactor", "debug", "profiling", "benchmark", "memory",
	"thread", "concurrency", "async", "promise", "callback", "hook", "hooks",
	"state", "store", "redux", "router", "routing", "navigation", "layout",
	"style", "css", "theme", "design", "accessibility", "i18n", "translation",
	"locale", "form", "validation", "input", "button", "modal", "table",
	"pagination", "search", "filter", "sort", "export", "import", "csv", "json",
	"yaml", "xml", "pdf", "report", "email", "notification", "webhook", "sms",
	"push", "mobile", "android", "ios", "swift", "kotlin", "flutter", "webview",
	"frontend", "backend", "fullstack", "microservice", "monolith", "graphql",
	"rest", "grpc", "protobuf", "openapi", "swagger", "sdk", "client", "server",
	"endpoint", "handler", "middleware", "controller", "model", "view",
	"template", "render", "ssr", "hydration", "bundle", "webpack", "vite",
	"esbuild", "npm", "yarn", "pnpm", "package", "dependency", "upgrade",
	"version", "changelog", "documentation", "readme", "onboarding", "guide",
	"tutorial", "example", "snippet", "cli", "terminal", "shell", "bash",
	"script", "automation", "cron", "scheduler", "job", "worker", "retry",
	"timeout", "circuit", "breaker", "ratelimit", "throttle", "feature", "flag",
	"experiment", "analytics", "tracking", "funnel", "ml", "model-training",
	"inference", "embedding", "vector", "prompt", "llm", "agent", "chatbot",
	"etl", "warehouse", "snowflake", "bigquery", "spark", "airflow", "dbt",
	"notebook", "pandas", "numpy", "visualization", "chart-js", "d3", "sql",
	"nosql", "mongodb", "dynamodb", "elasticsearch", "opensearch", "s3", "gcs",
	"azure", "aws", "gcp", "lambda", "serverless", "container", "image",
	"registry", "artifact", "ci", "cd", "github", "gitlab", "jenkins", "actions",
	"branch", "merge", "commit", "hotfix", "staging", "production", "sandbox",
	"fixture", "mock", "e2e", "unit", "integration", "coverage", "snapshot",
	"playwright", "cypress", "jest", "vitest", "pytest", "junit", "go", "js",
	"ts", "ui", "ux", "db", "qa", "k8s", "reactjs", "vue", "vuejs", "angular",
	"svelte", "nextjs", "nuxt", "express", "fastapi", "django", "flask", "rails",
	"spring", "dotnet", "rust", "java", "ruby", "php", "scala", "elixir",
}

// accentedWords are French keywords (the stop-word list is English and French):
// the tokenizer must keep their letters whole.
var accentedWords = []string{
	"données", "créer", "sécurité", "déploiement", "référentiel", "société",
	"facturation", "métier", "qualité", "réseau", "équipe", "contrôle",
}

// categoryTopics name the top-level categories of a tree; a corpus with more
// categories than topics suffixes them with a shared word.
var categoryTopics = []string{
	"frontend", "backend", "data", "infra", "security", "mobile", "testing",
	"platform", "billing", "growth", "ml", "docs", "support", "identity",
	"search", "payments", "messaging", "observability", "devex", "compliance",
}

// fillerWords make up the prose of skill bodies; none is a keyword.
var fillerWords = []string{
	"always", "prefer", "keep", "small", "clear", "names", "before", "after",
	"every", "change", "make", "sure", "team", "expects", "explicit", "errors",
	"each", "step", "should", "leave", "system", "consistent", "when",
	"unsure", "ask", "reviewer", "write", "short", "functions", "document",
	"decisions", "avoid", "hidden", "global", "values", "check", "inputs",
	"early", "return", "useful", "messages", "measure", "first", "then",
	"optimise", "only", "hot", "paths", "name", "things", "what",
	"they", "mean", "not", "how", "work", "internally", "group", "related",
	"code", "together", "delete", "dead", "branches", "quickly",
}

// verbs open skill descriptions.
var verbs = []string{
	"Use when", "Follow this to", "Rules for", "How we", "Guidelines to",
	"Checklist to", "Conventions when you", "Steps to",
}
