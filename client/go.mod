module github.com/taskplatform/taskplatform/client

go 1.26.0

require (
	github.com/stretchr/testify v1.12.1
	github.com/taskplatform/taskplatform/contract v0.1.0
	github.com/taskplatform/taskplatform/signer v0.1.0
	github.com/taskplatform/taskplatform/wire v0.1.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect

replace (
	github.com/taskplatform/taskplatform/contract => ../contract
	github.com/taskplatform/taskplatform/signer => ../signer
	github.com/taskplatform/taskplatform/wire => ../wire
)
