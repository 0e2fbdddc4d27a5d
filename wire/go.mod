module github.com/taskplatform/taskplatform/wire

go 1.26.0

require github.com/taskplatform/taskplatform/contract v0.1.0

replace github.com/taskplatform/taskplatform/contract => ../contract
