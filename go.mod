module github.com/profan-dev/profan

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/gocarina/gocsv v0.0.0-20240520201108-78e41c74b4b1
	github.com/ianlancetaylor/demangle v0.0.0-20260724033716-83e58baca724
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/spf13/cobra v1.10.2
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
