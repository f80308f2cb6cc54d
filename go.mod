module github.com/profan-dev/profan

go 1.26.8

require github.com/ianlancetaylor/demangle v0.0.0-20260724033716-83e58baca724
