package otlpwire

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout bounds one export when OTEL_EXPORTER_OTLP_TIMEOUT is unset.
const DefaultTimeout = 10 * time.Second

// DefaultEndpoint is the OTLP/HTTP base URL when no endpoint is set.
const DefaultEndpoint = "http://localhost:4318"

// Client posts OTLP/HTTP protobuf requests for one signal, configured as the
// OpenTelemetry exporters are, by the OTEL_EXPORTER_OTLP_* environment.
type Client struct {
	url      string
	redacted string
	from     string // the variable that set url, or "default"
	headers  http.Header
	timeout  time.Duration
	gzip     bool
	http     *http.Client
}

// NewClient reads, for signal ("traces", "metrics" or "logs"), the signal's
// OTEL_EXPORTER_OTLP_<SIGNAL>_* variable, else the common one:
// _ENDPOINT (the signal's is the full URL; the common one gets /v1/<signal>
// appended), _HEADERS (k=v pairs, comma separated, values URL-encoded),
// _TIMEOUT (milliseconds), _COMPRESSION (gzip or none), _CERTIFICATE (CA
// bundle), _CLIENT_CERTIFICATE and _CLIENT_KEY.
func NewClient(getenv func(string) string, signal string) (*Client, error) {
	sig := "OTEL_EXPORTER_OTLP_" + strings.ToUpper(signal) + "_"
	get := func(name string) (string, string) {
		if v := strings.TrimSpace(getenv(sig + name)); v != "" {
			return v, sig + name
		}
		return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_" + name)), "OTEL_EXPORTER_OTLP_" + name
	}
	c := &Client{headers: http.Header{}, timeout: DefaultTimeout}
	if v := strings.TrimSpace(getenv(sig + "ENDPOINT")); v != "" {
		c.url, c.from = v, sig+"ENDPOINT"
	} else {
		base, from := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")), "OTEL_EXPORTER_OTLP_ENDPOINT"
		if base == "" {
			base, from = DefaultEndpoint, "default"
		}
		c.url, c.from = strings.TrimSuffix(base, "/")+"/v1/"+signal, from
	}
	u, err := url.Parse(c.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("OTLP endpoint %q: want an http:// or https:// URL", c.url)
	}
	c.redacted = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	if v, key := get("HEADERS"); v != "" {
		for _, pair := range strings.Split(v, ",") {
			k, val, ok := strings.Cut(pair, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, fmt.Errorf("%s: %q is not key=value", key, pair)
			}
			if dec, err := url.QueryUnescape(strings.TrimSpace(val)); err == nil {
				val = dec
			}
			c.headers.Set(k, val)
		}
	}
	if v, key := get("TIMEOUT"); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms <= 0 {
			return nil, fmt.Errorf("%s=%s: want a positive number of milliseconds", key, v)
		}
		c.timeout = time.Duration(ms) * time.Millisecond
	}
	switch v, key := get("COMPRESSION"); v {
	case "", "none":
	case "gzip":
		c.gzip = true
	default:
		return nil, fmt.Errorf("%s=%s: want gzip or none", key, v)
	}
	tlsConf, err := tlsConfig(get)
	if err != nil {
		return nil, err
	}
	c.http = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, TLSClientConfig: tlsConf, MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second}}
	return c, nil
}

func tlsConfig(get func(string) (string, string)) (*tls.Config, error) {
	ca, caKey := get("CERTIFICATE")
	cert, certKey := get("CLIENT_CERTIFICATE")
	key, _ := get("CLIENT_KEY")
	if ca == "" && cert == "" {
		return nil, nil
	}
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", caKey, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: no PEM certificate in %s", caKey, ca)
		}
		conf.RootCAs = pool
	}
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", certKey, err)
		}
		conf.Certificates = []tls.Certificate{pair}
	}
	return conf, nil
}

// Endpoint is the URL posted to, without credentials or query.
func (c *Client) Endpoint() string { return c.redacted }

// EndpointOrigin is the variable that set the endpoint
// (OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT), or
// "default" (DefaultEndpoint).
func (c *Client) EndpointOrigin() string { return c.from }

// maxDrainBytes is how much of a response is read so the connection is reused.
const maxDrainBytes = 64 << 10

// Post sends one export request (protobuf body). Any status but 2xx is an
// error naming the endpoint; nothing is retried here: the caller keeps what
// failed (the span batcher drops it, the analytics publisher buffers it).
func (c *Client) Post(ctx context.Context, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader = bytes.NewReader(body)
	if c.gzip {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		_, _ = zw.Write(body)
		if err := zw.Close(); err != nil {
			return err
		}
		rd = &z
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, rd)
	if err != nil {
		return fmt.Errorf("OTLP export to %s: %w", c.redacted, err)
	}
	for k, v := range c.headers {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if c.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("OTLP export to %s: %w", c.redacted, err)
	}
	defer resp.Body.Close()
	_, _ = io.CopyN(io.Discard, resp.Body, maxDrainBytes)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("OTLP export to %s: status %s", c.redacted, resp.Status)
	}
	return nil
}

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }
