module referee

go 1.26

require (
	github.com/gofrs/flock v0.13.1 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
