package luabind

import (
	"testing"
	"time"
)

func TestZZBigLoad(t *testing.T) {
	rt := NewRuntime(Options{})
	defer rt.Close()
	start := time.Now()
	_, err := rt.LoadDomain("/tmp/sb3/big.lua")
	t.Log(time.Since(start), err)
}
