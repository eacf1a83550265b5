package metrics

import "testing"

func TestParseProcStat(t *testing.T) {
	// A command name with spaces and a parenthesis, as proc(5) allows.
	line := "4242 (we ird) name) S 1 4242 4242 0 -1 4194560 900 0 0 0 " +
		"250 70 0 0 20 0 7 0 123456 1680990208 3071 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
	st, ok := parseProcStat([]byte(line))
	want := procStat{utime: 250, stime: 70, starttime: 123456, vsize: 1680990208, rss: 3071}
	if !ok || st != want {
		t.Errorf("parseProcStat = %+v, %v; want %+v", st, ok, want)
	}
	if _, ok := parseProcStat([]byte("4242 (short) S 1 2")); ok {
		t.Error("a truncated stat line parsed")
	}
}

func TestParseIPExt(t *testing.T) {
	text := "TcpExt: SyncookiesSent InOctets\nTcpExt: 0 7\n" +
		"IpExt: InNoRoutes InOctets OutOctets\nIpExt: 0 1111 2222\n"
	for field, want := range map[string]float64{"InOctets": 1111, "OutOctets": 2222} {
		if v, ok := parseIPExt([]byte(text), field); !ok || v != want {
			t.Errorf("%s = %v, %v; want %v", field, v, ok, want)
		}
	}
	if _, ok := parseIPExt([]byte(text), "Nope"); ok {
		t.Error("a missing field was found")
	}
}
