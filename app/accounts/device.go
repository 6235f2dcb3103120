package accounts

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// A signed device is a browser a librarian signed in from: at each
// sign-in the server gives it a token (a random id and an HMAC of the id
// and the name, under a key of the server's), which the HTTP adapter keeps
// in a cookie of its own. A sign-in for that name from that browser is
// slowed by its own failures only, never by those others cause for the
// name or from the address, so that no one can lock a librarian out of
// her own browser. The key lives in memory, as the slowing does: after a
// restart there is nothing to be exempt from, and the next sign-in signs
// the device again.

// deviceIDLen is the length of a device's random id, in bytes.
const deviceIDLen = 16

// deviceMAC is the hex HMAC of a device id for the lower-case name.
func (s *Service) deviceMAC(id, name string) string {
	m := hmac.New(sha256.New, s.opt.DeviceKey)
	m.Write([]byte("sitesift device\x00" + id + "\x00" + name))
	return hex.EncodeToString(m.Sum(nil))
}

// deviceOf returns the id of the device a token signs for the lower-case
// name, and false when the token is not one the server signed for it.
func (s *Service) deviceOf(token, name string) (string, bool) {
	id, mac, ok := strings.Cut(token, ".")
	if !ok || len(id) != 2*deviceIDLen || token == "" {
		return "", false
	}
	if _, err := hex.DecodeString(id); err != nil {
		return "", false
	}
	return id, hmac.Equal([]byte(mac), []byte(s.deviceMAC(id, name)))
}

// Device returns the token of a signed device for name: the device of
// token kept when it signs for name, else a new one. The HTTP adapter
// gives it to the browser at each sign-in.
func (s *Service) Device(name, token string) string {
	n := normName(name)
	if _, ok := s.deviceOf(token, n); ok {
		return token
	}
	b := make([]byte, deviceIDLen)
	rand.Read(b)
	id := hex.EncodeToString(b)
	return id + "." + s.deviceMAC(id, n)
}

// normName is the name as the slowing counts it: sign-in names are
// matched whatever their case.
func normName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }
