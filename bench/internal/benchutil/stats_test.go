package benchutil

import (
	"os"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		var ds []time.Duration
		for _, x := range xs {
			ds = append(ds, time.Duration(x)*time.Millisecond)
		}
		return ds
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted on purpose
	}
	for _, tt := range []struct {
		name    string
		ds      []time.Duration
		p       float64
		want    time.Duration
		wantMed time.Duration
	}{
		{"empty", nil, 50, 0, 0},
		{"one", ms(7), 99, 7 * time.Millisecond, 7 * time.Millisecond},
		{"odd", ms(3, 1, 2), 50, 2 * time.Millisecond, 2 * time.Millisecond},
		{"even", ms(4, 1, 3, 2), 50, 2 * time.Millisecond, 2500 * time.Microsecond},
		{"p99 of 100", ms(hundred...), 99, 99 * time.Millisecond, 50500 * time.Microsecond},
		{"p100", ms(5, 9, 1), 100, 9 * time.Millisecond, 5 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.ds, tt.p); got != tt.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", tt.ds, tt.p, got, tt.want)
			}
			if got := Median(tt.ds); got != tt.wantMed {
				t.Errorf("Median(%v) = %v, want %v", tt.ds, got, tt.wantMed)
			}
		})
	}
}

func TestReadMemSelf(t *testing.T) {
	m, err := ReadMem(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	if m.RSS <= 0 || m.Peak < m.RSS {
		t.Errorf("ReadMem(self) = %+v; want 0 < RSS <= Peak", m)
	}
	cpu, err := CPUTime(os.Getpid())
	if err != nil || cpu <= 0 {
		t.Errorf("CPUTime(self) = %v, %v; want > 0", cpu, err)
	}
}
