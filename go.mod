module referee

go 1.26
