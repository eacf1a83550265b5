package stdio

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestWithCode(t *testing.T) {
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		t.Fatal(err)
	}
	coded := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}
	for _, tt := range []struct {
		name string
		err  error
		want int64 // 0: no error
	}{
		{"no error", nil, 0},
		{"coded", coded, jsonrpc.CodeInvalidParams},
		{"coded, wrapped", fmt.Errorf("calling: %w", coded), jsonrpc.CodeInvalidParams},
		{"before initialize", errors.New(`method "tools/list" is invalid during session initialization`), jsonrpc.CodeInvalidRequest},
		{"plain", errors.New("something broke"), jsonrpc.CodeInternalError},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := &jsonrpc.Response{ID: id, Error: tt.err}
			got := withCode(resp).(*jsonrpc.Response)
			var rpcErr *jsonrpc.Error
			switch {
			case tt.want == 0 && got.Error != nil:
				t.Errorf("error %v added", got.Error)
			case tt.want != 0 && (!errors.As(got.Error, &rpcErr) || rpcErr.Code != tt.want):
				t.Errorf("error %v, want code %d", got.Error, tt.want)
			case tt.want != 0 && !strings.Contains(got.Error.Error(), rpcErr.Message):
				t.Errorf("message %q lost: %v", rpcErr.Message, got.Error)
			}
			if got.ID != id {
				t.Errorf("id %v, want %v", got.ID, id)
			}
		})
	}
}
