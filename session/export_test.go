package session

// ReadHandOffDelay is readHandOffDelay, for the tests of package
// session_test that let fake time pass it.
const ReadHandOffDelay = readHandOffDelay
