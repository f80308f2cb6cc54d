package analysis

import "github.com/profan-dev/profan/internal/verdict"

// The verdict's types are package verdict's, so that a renderer reads a
// verdict without importing the engine that makes it; the analysis, the
// rules and the commands name them here, as they did before the move.
type (
	Kernel                   = verdict.Kernel
	Model                    = verdict.Model
	Instruction              = verdict.Instruction
	Access                   = verdict.Access
	Missing                  = verdict.Missing
	MissingCount             = verdict.MissingCount
	Suppressed               = verdict.Suppressed
	Unit                     = verdict.Unit
	Limiter                  = verdict.Limiter
	Headroom                 = verdict.Headroom
	Group                    = verdict.Group
	Launch                   = verdict.Launch
	Config                   = verdict.Config
	GroupFinding             = verdict.GroupFinding
	IDList                   = verdict.IDList
	Timeline                 = verdict.Timeline
	HostLaunch               = verdict.HostLaunch
	Idle                     = verdict.Idle
	IdleCall                 = verdict.IdleCall
	DeviceTimeline           = verdict.DeviceTimeline
	StreamTimeline           = verdict.StreamTimeline
	Segment                  = verdict.Segment
	Lever                    = verdict.Lever
	Collapse                 = verdict.Collapse
	Region                   = verdict.Region
	Replayed                 = verdict.Replayed
	Site                     = verdict.Site
	Shapes                   = verdict.Shapes
	Unrepeated               = verdict.Unrepeated
	App                      = verdict.App
	SuppressedRecommendation = verdict.SuppressedRecommendation
	LeverInUse               = verdict.LeverInUse
	CategoryTime             = verdict.CategoryTime
	Recommendation           = verdict.Recommendation
	Join                     = verdict.Join
	RooflinePoint            = verdict.RooflinePoint
)

// The limiting units (verdict.Unit).
const (
	LimitDRAM     = verdict.LimitDRAM
	LimitL2       = verdict.LimitL2
	LimitL1Shared = verdict.LimitL1Shared
	LimitPipe     = verdict.LimitPipe
	LimitLatency  = verdict.LimitLatency
	LimitLaunch   = verdict.LimitLaunch
	LimitAtomics  = verdict.LimitAtomics
	LimitMemory   = verdict.LimitMemory
)

// The idle causes (verdict.IdleCauses).
const (
	IdleLaunch   = verdict.IdleLaunch
	IdleQueued   = verdict.IdleQueued
	IdleSync     = verdict.IdleSync
	IdleCopy     = verdict.IdleCopy
	IdleLeading  = verdict.IdleLeading
	IdleTrailing = verdict.IdleTrailing
	IdleOther    = verdict.IdleOther
	IdleData     = verdict.IdleData
	IdlePython   = verdict.IdlePython
	IdleAlloc    = verdict.IdleAlloc
	IdleOpHost   = verdict.IdleOpHost
)
