package engine

// Error is an error of package engine with its message kept apart from the
// "engine: " prefix, so a caller can put the message in a sentence of its
// own (`action "Pray": the action has no body`) without cutting text. The
// sentinels ErrRestricted, ErrNotExecutable, ErrTooManyResumes and
// ErrNoPlanner are *Error values; compare them with errors.Is.
type Error struct {
	Msg string // the message, without the package prefix
}

func (e *Error) Error() string { return "engine: " + e.Msg }

// Message returns the message without the package prefix.
func (e *Error) Message() string { return e.Msg }

func newError(msg string) error { return &Error{Msg: msg} }

// ConsiderationError is a consideration spec that does not compile.
// Consideration is its name; Msg says what is wrong; Err is the underlying
// error when there is one, such as the *Error of a curve that fails
// Curve.Validate.
type ConsiderationError struct {
	Consideration string
	Msg           string
	Err           error
}

// Message is the error without the package prefix:
// `consideration "name": message`.
func (e *ConsiderationError) Message() string {
	return "consideration \"" + e.Consideration + "\": " + e.Msg
}

func (e *ConsiderationError) Error() string { return "engine: " + e.Message() }

// Unwrap returns Err.
func (e *ConsiderationError) Unwrap() error { return e.Err }

// messageOf returns err's message without its package prefix when err
// itself has a Message method (as *Error, *ActionError and the errors of
// package expr do), else err.Error(). It does not look into wrapped errors,
// whose wrappers may add words of their own.
func messageOf(err error) string {
	if m, ok := err.(interface{ Message() string }); ok {
		return m.Message()
	}
	return err.Error()
}
