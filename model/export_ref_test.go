package model

// For the external tests of this package (derive_ref_test.go): the reference derivations.
var RefDerive = refDerive
