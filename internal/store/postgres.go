package store

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
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
	noTable:       pgNoTable,
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

// Connection-string fields that hold a secret, wherever a message quotes
// one: the password of a URL's user:password@, a URL's password=
// parameters, and a keyword string's password= values (reKeywordSecret).
var (
	reURLSecret   = regexp.MustCompile(`(?i)(\bpostgres(?:ql)?://[^\s:/@]*:)[^\s@]*@`)
	reParamSecret = regexp.MustCompile(`(?i)([?&;][a-z_]*password=)[^&;\s` + "`" + `'"]*`)
)

// redactError masks the secrets of dsn in an error's text: drivers quote
// the connection string they could not parse or use. The connection
// string, where the message quotes it whole, becomes Display's form; then
// the password fields of any connection string left in the message are
// masked. Nothing else of the message changes: masking every occurrence
// of the password's text rewrote the message and, by what it rewrote,
// told the password (with password "p", "opening" read "oxxxxxening").
func redactError(dsn string, err error) error {
	if err == nil || !IsPostgres(dsn) {
		return err
	}
	msg := err.Error()
	out := msg
	for _, form := range []string{dsn, pgDSN(dsn)} {
		out = strings.ReplaceAll(out, form, redactURL(dsn))
	}
	out = maskSecretFields(out)
	if out == msg {
		return err
	}
	return errors.New(out)
}

// maskSecretFields masks the password fields of the connection strings s
// quotes.
func maskSecretFields(s string) string {
	s = reURLSecret.ReplaceAllString(s, "${1}xxxxx@")
	s = reParamSecret.ReplaceAllString(s, "${1}xxxxx")
	var b strings.Builder
	last := 0
	for _, m := range reKeywordSecret.FindAllStringSubmatchIndex(s, -1) {
		if m[0] > 0 && strings.ContainsRune("?&;", rune(s[m[0]-1])) {
			continue // a URL's parameter, masked above
		}
		b.WriteString(s[last:m[4]])
		b.WriteString("xxxxx")
		last = m[5]
	}
	b.WriteString(s[last:])
	return b.String()
}

// pgNoTable reports PostgreSQL's undefined_table (42P01): the server
// answered, as the role asked for, and the table is not there. A database
// or role that does not exist (3D000, 28000) is an error, not an empty
// database, though its message also reads "does not exist".
func pgNoTable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "42P01"
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
