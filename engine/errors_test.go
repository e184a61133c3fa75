package engine

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/moonmind-ai/moonmind/engine/curve"
	"github.com/moonmind-ai/moonmind/engine/expr"
)

// TestErrorsKeepTheirMessage checks that errors that other messages embed
// are typed, with the message apart from the "engine: " prefix, so no
// caller cuts text.
func TestErrorsKeepTheirMessage(t *testing.T) {
	_, err := CompileConsideration(ConsiderationSpec{Name: "fear", Input: "x", Min: 0, Max: 1,
		Curve: &curve.Curve{Kind: "logistc"}}, expr.NewSchema("x"))
	var ce *ConsiderationError
	require.True(t, errors.As(err, &ce), "%v is a *ConsiderationError", err)
	assert.Equal(t, "fear", ce.Consideration)
	assert.Equal(t, `unknown curve "logistc"; want linear, polynomial, logistic, logit or step (did you mean "logistic"?)`, ce.msg)
	var inner *Error
	require.True(t, errors.As(ce.Err, &inner), "the curve's own error is kept")
	assert.Equal(t, ce.msg, inner.Message())
	assert.Equal(t, `engine: consideration "fear": `+ce.msg, err.Error())

	ae := &ActionError{Action: "Pray", Err: ErrNotExecutable}
	assert.Equal(t, `action "Pray": the action has no body, so it cannot run`, ae.Message())
	assert.Equal(t, "engine: "+ae.Message(), ae.Error())
	assert.ErrorIs(t, ae, ErrNotExecutable)

	other := errors.New("luabind: x.lua:3: boom")
	assert.Equal(t, `engine: action "Pray": luabind: x.lua:3: boom`, (&ActionError{Action: "Pray", Err: other}).Error(),
		"an error of another package keeps its prefix")
}

// TestErrorKinds checks that errors that name something missing, and every
// error of Restore, match their sentinel under errors.Is and keep a message
// that says what was missing.
func TestErrorKinds(t *testing.T) {
	d, err := Compile(soldierRole())
	require.NoError(t, err)
	w := NewWorld(1)
	a := NewAgent("ann", d)
	w.Add(a)

	err = a.Believe("amo", expr.NumberValue(1))
	require.ErrorIs(t, err, ErrUnknownName)
	assert.Equal(t, `engine: believe amo: no state variable "amo" (did you mean "ammo"?)`, err.Error())
	var ee *Error
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, `believe amo: no state variable "amo" (did you mean "ammo"?)`, ee.Message())

	err = a.Tell("bob", "ammo", expr.NumberValue(1))
	require.ErrorIs(t, err, ErrUnknownName)
	assert.Contains(t, err.Error(), `no agent "bob" in the world`)
	assert.NotErrorIs(t, err, ErrSnapshot)

	_, err = Restore(strings.NewReader(`{"format": "something else"}`), RestoreOptions{Domains: []*Domain{d}})
	require.ErrorIs(t, err, ErrSnapshot)
	assert.Equal(t, `engine: restore: format "something else" is not "moonmind-snapshot"`, err.Error())
	assert.NotErrorIs(t, err, ErrUnknownName)

	_, err = w.AddSnapshot(strings.NewReader(`[`), RestoreOptions{})
	require.ErrorIs(t, err, ErrSnapshot)
	var se *json.SyntaxError
	assert.False(t, errors.As(err, &se), "a truncated input is an unexpected EOF, not a syntax error")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "the decoder's error stays wrapped")
}
