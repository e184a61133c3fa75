package engine

// Error is an error of package engine with its message kept apart from the
// "engine: " prefix, so a caller can put the message in a sentence of its
// own (`action "Pray": the action has no body`) without cutting text. The
// sentinels ErrRestricted, ErrNotExecutable, ErrTooManyResumes,
// ErrNoPlanner, ErrUnknownName and ErrSnapshot are *Error values; compare
// them with errors.Is. An *Error whose Kind is one of them (the errors of
// Believe, Tell or Restore, say) matches it under errors.Is while its own
// message says what was missing.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type Error struct {
	msg  string // the message, without the package prefix
	Kind error  // the sentinel this error is an instance of, or nil
}

func (e *Error) Error() string { return "engine: " + e.msg }

// Message returns the message without the package prefix.
func (e *Error) Message() string { return e.msg }

// Unwrap returns Kind.
func (e *Error) Unwrap() error { return e.Kind }

func newError(msg string) error { return &Error{msg: msg} }

// The sentinels below are never reassigned; they exist to be compared with
// errors.Is.
var (
	// ErrUnknownName is the kind of the errors that a name the caller gave
	// (a state variable, an agent, a goal, a domain) has nothing behind it;
	// the error itself names it and suggests the closest existing name.
	ErrUnknownName = newError("no such name")
	// ErrSnapshot is the kind of every error of Restore and
	// World.AddSnapshot: input that is not a snapshot this engine reads, or
	// one that names a domain the options lack.
	ErrSnapshot = newError("the snapshot cannot be restored")
)

// unknownName is an *Error of kind ErrUnknownName.
func unknownName(msg string) error { return &Error{msg: msg, Kind: ErrUnknownName} }

// snapshotError makes err, an error of Restore or AddSnapshot, match
// ErrSnapshot under errors.Is, keeping its message and whatever it wraps.
type snapshotError struct{ err error }

func (e *snapshotError) Error() string   { return e.err.Error() }
func (e *snapshotError) Unwrap() []error { return []error{e.err, ErrSnapshot} }

// ConsiderationError is a consideration spec that does not compile.
// Consideration is its name; Message says what is wrong; Err is the underlying
// error when there is one, such as the *Error of a curve with an unknown
// kind or a parameter that is not a finite number.
// Like every error of package engine it is not changed after it is returned,
// so it is safe to read from any goroutine.
type ConsiderationError struct {
	Consideration string
	msg           string
	Err           error
}

// Message is the error without the package prefix:
// `consideration "name": message`.
func (e *ConsiderationError) Message() string {
	return "consideration \"" + e.Consideration + "\": " + e.msg
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
