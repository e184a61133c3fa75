module example.com/module

go 1.26
