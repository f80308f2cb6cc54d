package store

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
)

// IsPostgres reports whether dsn names a PostgreSQL database, in either
// form libpq and pgx take: a URL postgres://[user[:password]@][host][:port]
// /dbname[?param=value&…] (or postgresql://, the scheme in any case), or a
// keyword/value connection string (host=db user=ci dbname=profan), each of
// whose keys is one of libpq's. A Unix socket directory goes in the host
// parameter (postgres://profan@/profan?host=/run/postgresql); other
// parameters (sslmode, search_path, application_name, …) are passed on as
// pgx documents. Anything else is a SQLite file path.
func IsPostgres(dsn string) bool {
	return isPGURL(dsn) || isKeywordDSN(dsn)
}

// isPGURL reports a postgres:// or postgresql:// URL, the scheme in any
// case (URL schemes are case-insensitive).
func isPGURL(dsn string) bool {
	l := strings.ToLower(dsn[:min(len(dsn), len("postgresql://"))])
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// pgDSN is dsn as pgx reads it: pgx knows a URL by its scheme in lower
// case only, and would read POSTGRES://… as keywords.
func pgDSN(dsn string) string {
	if isPGURL(dsn) {
		scheme, rest, _ := strings.Cut(dsn, "://")
		return strings.ToLower(scheme) + "://" + rest
	}
	return dsn
}

// libpqKeywords are the keys of a libpq keyword/value connection string
// (libpq's "Parameter Key Words").
var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"passfile": true, "require_auth": true, "channel_binding": true, "connect_timeout": true,
	"client_encoding": true, "options": true, "application_name": true, "fallback_application_name": true,
	"keepalives": true, "keepalives_idle": true, "keepalives_interval": true, "keepalives_count": true,
	"tcp_user_timeout": true, "replication": true, "gssencmode": true, "sslmode": true, "requiressl": true,
	"sslnegotiation": true, "sslcompression": true, "sslcert": true, "sslkey": true, "sslpassword": true,
	"sslcertmode": true, "sslrootcert": true, "sslcrl": true, "sslcrldir": true, "sslsni": true,
	"requirepeer": true, "ssl_min_protocol_version": true, "ssl_max_protocol_version": true,
	"krbsrvname": true, "gsslib": true, "gssdelegation": true, "service": true,
	"target_session_attrs": true, "load_balance_hosts": true,
}

// isKeywordDSN reports a libpq keyword/value connection string: it starts
// with one of libpq's keys and '=' (host=db user=ci dbname=profan), so
// that a file named a=b is still a file, and a string libpq would refuse
// reaches PostgreSQL's parser, which says why, rather than becoming a
// SQLite file of its name.
func isKeywordDSN(dsn string) bool {
	key, _, ok := strings.Cut(strings.TrimLeft(dsn, " \t\n\r"), "=")
	return ok && libpqKeywords[strings.TrimRight(key, " \t")]
}

// reKeywordSecret finds the secret values of a keyword/value string.
var reKeywordSecret = regexp.MustCompile(`(?i)(\b[a-z_]*password\s*=\s*)('(?:[^'\\]|\\.)*'?|\S+)`)

// pgDialect is PostgreSQL through pgx's database/sql driver. Writers run
// concurrently (READ COMMITTED); what SQLite's single write lock gives for
// free is kept as follows:
//
//   - migrations: each migration's transaction first takes a transaction-
//     scoped advisory lock (pgMigrationLock), so processes opening a new
//     database at once apply each migration exactly once;
//   - duplicate runs: runs.digest is UNIQUE; of two transactions inserting
//     one digest the second waits for the first and, once it commits, fails
//     with unique_violation, which pgError maps to *DuplicateError;
//   - dictionary rows (kernel_names, metric_names, raw_metric_keys): a run
//     adds them in its own transaction, after taking a second advisory lock
//     (pgDictLock) that it holds to its end. Rows that only lock holders
//     insert cannot make two writers wait for each other (no deadlock), a
//     rolled-back run leaves none, and their IDs are committed in order,
//     which the key cache relies on. Runs that add no new names, the common
//     case, never take the lock and run side by side;
//   - trends: kernel_values holds each value's kernel name ID too
//     (valuesByName), so that a trend reads ranges of an index, not one
//     index entry per kernel.
var pgDialect = &dialect{
	name:          "postgres",
	driver:        "pgx",
	dsn:           pgDSN,
	display:       redactURL,
	rebind:        pgRebind,
	maxParams:     65535,
	formatError:   pgError,
	migrationDir:  "migrations_pg",
	migrationLock: `SELECT pg_advisory_xact_lock(` + strconv.FormatInt(pgMigrationLock, 10) + `)`,
	dictLock:      `SELECT pg_advisory_xact_lock(` + strconv.FormatInt(pgDictLock, 10) + `)`,
	valuesByName:  true,
}

// Advisory lock keys: "profan" in ASCII, then the lock's number. They are
// database-wide, whatever the schema.
const (
	pgMigrationLock = 0x70726f66616e_01
	pgDictLock      = 0x70726f66616e_02
)

// pgRebind rewrites ? placeholders as $1, $2, …, leaving quoted strings,
// quoted identifiers and comments alone.
func pgRebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		case c == '\'' || c == '"':
			end := strings.IndexByte(q[i+1:], c)
			if end < 0 { // unterminated: leave the rest alone
				b.WriteString(q[i:])
				return b.String()
			}
			end += i + 1
			b.WriteString(q[i : end+1])
			i = end
			continue
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// redactURL returns a PostgreSQL URL without its secrets, for messages:
// the password of user:password@ and of the password= parameters.
func redactURL(dsn string) string {
	if !isPGURL(dsn) {
		return reKeywordSecret.ReplaceAllString(dsn, "${1}xxxxx")
	}
	u, err := url.Parse(pgDSN(dsn))
	if err != nil {
		return "the PostgreSQL database (unparsable URL)"
	}
	q := u.Query()
	for k := range q {
		if secretParam(k) {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.Redacted()
}

// secretParam reports a connection parameter that holds a secret.
func secretParam(k string) bool {
	k = strings.ToLower(k)
	return k == "password" || k == "sslpassword" || strings.HasSuffix(k, "password")
}

// secretsOf returns the secrets a PostgreSQL URL holds, as written and as
// decoded, longest first; the URL is not parsed when it cannot be, so its
// password= values are found by hand.
func secretsOf(dsn string) []string {
	var out []string
	add := func(s string) {
		if len(s) >= 1 {
			out = append(out, s)
			if d, err := url.QueryUnescape(s); err == nil && d != s {
				out = append(out, d)
			}
		}
	}
	if !isPGURL(dsn) {
		for _, m := range reKeywordSecret.FindAllStringSubmatch(dsn, -1) {
			v := m[2]
			add(v)
			if uq := strings.Trim(v, "'"); uq != v {
				add(uq)
				add(strings.NewReplacer(`\'`, "'", `\\`, `\`).Replace(uq))
			}
		}
		sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
		return out
	}
	rest := dsn
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
		if _, pw, ok := strings.Cut(rest[:at], ":"); ok {
			add(pw)
		}
	}
	if _, query, ok := strings.Cut(dsn, "?"); ok {
		for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
			if k, v, ok := strings.Cut(kv, "="); ok && secretParam(k) {
				add(v)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// redactError removes the secrets of dsn from an error's text: drivers
// quote the URL they could not parse or use.
func redactError(dsn string, err error) error {
	if err == nil || !IsPostgres(dsn) {
		return err
	}
	msg := err.Error()
	for _, s := range secretsOf(dsn) {
		msg = strings.ReplaceAll(msg, s, "xxxxx")
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// pgError maps PostgreSQL errors as sqliteError maps SQLite's: a
// unique_violation of runs.digest becomes a *DuplicateError (its ID filled
// in by the caller); text PostgreSQL cannot store says which rule it broke.
// Other errors pass through.
func pgError(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Code == "23505" && pe.ConstraintName == "runs_digest_key": // unique_violation
		return &DuplicateError{}
	case pe.Code == "22021": // character_not_in_repertoire: invalid UTF-8 or NUL
		return fmt.Errorf("PostgreSQL stores only valid UTF-8 text without NUL bytes: %w", err)
	case pe.Code == "54000": // program_limit_exceeded: an index row too large
		return fmt.Errorf("value too long for PostgreSQL's index: %w", err)
	}
	return err
}
