package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsKeepTheirMessage checks that errors that other messages embed
// are typed, with the message apart from the "engine: " prefix, so no
// caller cuts text.
func TestErrorsKeepTheirMessage(t *testing.T) {
	_, err := CompileConsideration(ConsiderationSpec{Name: "fear", Input: "x", Min: 0, Max: 1,
		Curve: &Curve{Kind: "logistc"}}, NewSchema("x"))
	var ce *ConsiderationError
	require.True(t, errors.As(err, &ce), "%v is a *ConsiderationError", err)
	assert.Equal(t, "fear", ce.Consideration)
	assert.Equal(t, `unknown curve "logistc"; want linear, polynomial, logistic, logit or step (did you mean "logistic"?)`, ce.Msg)
	var inner *Error
	require.True(t, errors.As(ce.Err, &inner), "the curve's own error is kept")
	assert.Equal(t, ce.Msg, inner.Message())
	assert.Equal(t, `engine: consideration "fear": `+ce.Msg, err.Error())

	ae := &ActionError{Action: "Pray", Err: ErrNotExecutable}
	assert.Equal(t, `action "Pray": the action has no body, so it cannot run`, ae.Message())
	assert.Equal(t, "engine: "+ae.Message(), ae.Error())
	assert.ErrorIs(t, ae, ErrNotExecutable)

	other := errors.New("luabind: x.lua:3: boom")
	assert.Equal(t, `engine: action "Pray": luabind: x.lua:3: boom`, (&ActionError{Action: "Pray", Err: other}).Error(),
		"an error of another package keeps its prefix")
}
