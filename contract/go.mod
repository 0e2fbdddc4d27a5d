module github.com/taskplatform/taskplatform/contract

go 1.26.0
