package accounts

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are the costs of an argon2id hash. A stored hash carries its own,
// so that hashes made with other costs still verify.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
}

// DefaultParams are OWASP's first argon2id choice (19 MiB, 2 passes, 1
// lane): some tens of milliseconds of one core a hash.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
)

var b64 = base64.RawStdEncoding

// hashPassword returns the PHC-encoded argon2id hash of password with a
// fresh random salt: $argon2id$v=19$m=…,t=…,p=…$salt$hash.
func hashPassword(password string, p Params) string {
	salt := make([]byte, saltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, keyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

var errBadHash = errors.New("accounts: stored password hash is not an argon2id hash")

// checkPassword reports whether password matches the encoded hash.
func checkPassword(password, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var v int
	var p Params
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false, fmt.Errorf("%w (version %q)", errBadHash, parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return false, fmt.Errorf("%w (parameters %q)", errBadHash, parts[3])
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, fmt.Errorf("%w (salt)", errBadHash)
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, fmt.Errorf("%w (key)", errBadHash)
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// newPassword returns a generated password: 120 random bits in 24
// lower-case letters and digits, in groups of six for reading aloud.
func newPassword() string {
	b := make([]byte, 15)
	rand.Read(b)
	s := strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString(b), "="))
	return s[0:6] + "-" + s[6:12] + "-" + s[12:18] + "-" + s[18:24]
}
