package metrics

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// processFamilies are the process_* series, read from /proc/self at scrape
// time (proc(5)): CPU time, memory, file descriptors, start time, and the
// bytes of the network namespace the process is in. A figure that cannot be
// read is left out of that scrape.
func processFamilies() []family {
	stat := func(name, typ, help string, pick func(procStat) float64) family {
		return family{name: name, help: help, typ: typ, collect: func(emit func(sample)) {
			if st, ok := readProcStat(); ok {
				emit(sample{value: pick(st)})
			}
		}}
	}
	netstat := func(name, help, field string) family {
		return family{name: name, help: help, typ: "counter", collect: func(emit func(sample)) {
			if v, ok := readIPExt(field); ok {
				emit(sample{value: v})
			}
		}}
	}
	return []family{
		stat("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
			func(st procStat) float64 { return float64(st.utime+st.stime) / userHZ }),
		{name: "process_max_fds", typ: "gauge", help: "Maximum number of open file descriptors.", collect: func(emit func(sample)) {
			if v, ok := rlimit(syscall.RLIMIT_NOFILE); ok {
				emit(sample{value: v})
			}
		}},
		netstat("process_network_receive_bytes_total", "Number of bytes received by the process over the network.", "InOctets"),
		netstat("process_network_transmit_bytes_total", "Number of bytes sent by the process over the network.", "OutOctets"),
		{name: "process_open_fds", typ: "gauge", help: "Number of open file descriptors.", collect: func(emit func(sample)) {
			if d, err := os.Open("/proc/self/fd"); err == nil {
				names, err := d.Readdirnames(-1)
				d.Close()
				if err == nil {
					emit(sample{value: float64(len(names))})
				}
			}
		}},
		stat("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
			func(st procStat) float64 { return float64(st.rss * int64(os.Getpagesize())) }),
		{name: "process_start_time_seconds", typ: "gauge", help: "Start time of the process since unix epoch in seconds.", collect: func(emit func(sample)) {
			st, ok := readProcStat()
			boot, bok := bootTime()
			if ok && bok {
				emit(sample{value: boot + float64(st.starttime)/userHZ})
			}
		}},
		stat("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
			func(st procStat) float64 { return float64(st.vsize) }),
		{name: "process_virtual_memory_max_bytes", typ: "gauge", help: "Maximum amount of virtual memory available in bytes.", collect: func(emit func(sample)) {
			if v, ok := rlimit(syscall.RLIMIT_AS); ok {
				emit(sample{value: v})
			}
		}},
	}
}

// userHZ is the unit of the clock-tick fields of /proc/self/stat: USER_HZ,
// which Linux fixes at 100 for user space on every architecture Go supports.
const userHZ = 100

// procStat holds the fields of /proc/self/stat grove reports.
type procStat struct {
	utime, stime, starttime uint64 // clock ticks
	vsize                   uint64 // bytes
	rss                     int64  // pages
}

// readProcStat parses /proc/self/stat. The second field, the command name in
// parentheses, may hold spaces and parentheses, so fields are counted from
// the last ')'.
func readProcStat() (procStat, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseProcStat(b)
}

func parseProcStat(b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	// Fields after ")" start at field 3 (state); proc(5) numbers them from 1.
	f := bytes.Fields(b[i+1:])
	field := func(n int) string {
		if n-3 < len(f) {
			return string(f[n-3])
		}
		return ""
	}
	var st procStat
	var errs [5]error
	st.utime, errs[0] = strconv.ParseUint(field(14), 10, 64)
	st.stime, errs[1] = strconv.ParseUint(field(15), 10, 64)
	st.starttime, errs[2] = strconv.ParseUint(field(22), 10, 64)
	st.vsize, errs[3] = strconv.ParseUint(field(23), 10, 64)
	st.rss, errs[4] = strconv.ParseInt(field(24), 10, 64)
	for _, err := range errs {
		if err != nil {
			return procStat{}, false
		}
	}
	return st, true
}

// bootTime is the btime line of /proc/stat: the boot time in seconds since
// the epoch.
func bootTime() (float64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			n, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
			return float64(n), err == nil
		}
	}
	return 0, false
}

// readIPExt returns one field of the IpExt section of /proc/self/net/netstat,
// a header line of names followed by a line of values.
func readIPExt(field string) (float64, bool) {
	b, err := os.ReadFile("/proc/self/net/netstat")
	if err != nil {
		return 0, false
	}
	return parseIPExt(b, field)
}

func parseIPExt(b []byte, field string) (float64, bool) {
	var names [][]byte
	for line := range bytes.Lines(b) {
		rest, ok := bytes.CutPrefix(line, []byte("IpExt:"))
		if !ok {
			continue
		}
		if names == nil {
			names = bytes.Fields(rest)
			continue
		}
		values := bytes.Fields(rest)
		for i, n := range names {
			if string(n) == field && i < len(values) {
				v, err := strconv.ParseUint(string(values[i]), 10, 64)
				return float64(v), err == nil
			}
		}
		return 0, false
	}
	return 0, false
}

// rlimit returns a resource's soft limit (RLIM_INFINITY as the largest
// uint64).
func rlimit(resource int) (float64, bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(resource, &lim); err != nil {
		return 0, false
	}
	return float64(lim.Cur), true
}
