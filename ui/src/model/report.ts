// The report model as the UI reads it: `masf_report::Report` (masforensics.report/1, the
// `report_model` command and report.json), typed from the Rust types in
// ../generated/ipc.ts. The names the views use are aliases of the generated ones; nothing here
// is written by hand.
import type * as g from "../generated/ipc";

export type Report = g.Report;
export type ReportAnswer = g.ReportAnswer;
export type ReportCase = g.CaseInfo;
export type ReportSource = g.SourceSection;
export type ArtefactCoverage = g.ArtefactCoverage;
export type CoverageItem = g.CoverageItem;
export type ArtefactStatus = g.ArtefactStatus;
export type ReportInvocation = g.InvocationRow;
export type VerifiedFact = g.FactRow;
export type Phenomenon = g.PhenomenonRow;
export type Hypothesis = g.HypothesisRow;
export type HypothesisEdge = g.EdgeRow;
export type ReportMatrix = g.EvidenceMatrix;
export type MatrixCell = g.MatrixCell;
export type Entity = g.EntityRow;
export type Identifier = g.IdentifierRow;
export type SameAsDecision = g.SameAsDecision;
export type SameAs = g.SameAsRow;
export type Actor = g.ActorRow;
export type TimelineEntry = g.TimelineRow;
export type NotRead = g.NotRead;
