package store

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/store/blob"
)

// dict is an in-memory raw_metric_keys and text_templates (the blob
// package's tests have their own).
type dict struct {
	ids   map[blob.Key]uint64
	keys  []blob.Key
	tids  map[string]uint64
	texts []string
}

func (d *dict) textID(t []byte) (uint64, error) {
	if id, ok := d.tids[string(t)]; ok {
		return id, nil
	}
	if d.tids == nil {
		d.tids = map[string]uint64{}
	}
	d.texts = append(d.texts, string(t))
	d.tids[string(t)] = uint64(len(d.texts))
	return uint64(len(d.texts)), nil
}

func (d *dict) id(m *profan.Metric, _ int) (uint64, error) {
	k := blob.KeyOf(m)
	if id, ok := d.ids[k]; ok {
		return id, nil
	}
	if d.ids == nil {
		d.ids = map[blob.Key]uint64{}
	}
	d.keys = append(d.keys, k)
	d.ids[k] = uint64(len(d.keys))
	return uint64(len(d.keys)), nil
}

func (d *dict) encode(k *profan.Kernel) []byte {
	b, err := encodeKernel(nil, k, d.id, d.textID)
	if err != nil {
		panic(err)
	}
	return b
}

// encodeKernel appends the blob of k to buf. key returns the ID of a
// metric's raw_metric_keys row, text that of a finding's template (nil
// writes findings out).
func encodeKernel(buf []byte, k *profan.Kernel, key func(m *profan.Metric, pos int) (uint64, error), text func([]byte) (uint64, error)) ([]byte, error) {
	e := blob.Encoder{B: buf, Key: key, Text: text}
	return e.Kernel(k)
}
