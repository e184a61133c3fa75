package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCountSample(t *testing.T) {
	names, err := count("testdata/sample")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"const A", "field T.Embedded", "field T.X", "func F",
		"method I.Do", "method T.M", "method T.N",
		"type Embedded", "type I", "type T", "var V",
	}, names, "unexported names, methods of unexported types and test files are not counted")
}
