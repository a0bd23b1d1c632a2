//! The events the shell emits to the window, each with its payload type; the shell emits
//! only through [`emit`], so a payload cannot differ from what `ipc.ts` declares.

#![cfg_attr(not(test), allow(dead_code))] // the table is read by the TypeScript generator

use masf_api::StreamItem;
use masf_api::desktop::{IntakeProgress, RunFinished, SourceDraft};
use serde::Serialize;
use tauri::Emitter;
use ts_rs::TS;

use crate::ts::{Declarations, TsName};

/// An event the shell emits to the window: its name and payload type. The shell emits only
/// through [`emit`], so a payload cannot differ from what `ipc.ts` declares.
pub trait Event {
    const NAME: &'static str;
    type Payload: Serialize + ?Sized;
}

/// Emits `E` to every window (a closed window is not an error of the run).
pub fn emit<E: Event>(app: &impl Emitter<tauri::Wry>, payload: &E::Payload) {
    let _ = app.emit(E::NAME, payload);
}

/// One event as TypeScript sees it.
pub struct EventType {
    pub name: &'static str,
    pub(crate) payload: TsName,
    pub(crate) visit: fn(&mut Declarations),
}

macro_rules! events {
    ($( $(#[$meta:meta])* $ty:ident $name:literal => $payload:ty, as $ts:ty; )*) => {
        $(
            $(#[$meta])*
            pub struct $ty;
            impl Event for $ty {
                const NAME: &'static str = $name;
                type Payload = $payload;
            }
        )*
        /// The events, by name.
        pub fn event_types() -> Vec<EventType> {
            vec![$(EventType {
                name: $name,
                payload: <$ts as TS>::name,
                visit: |d| d.visit::<$ts>(),
            }),*]
        }
    };
}

events! {
    /// Items the run appended to the store, in order, batched per poll.
    RunEvents "run-event" => [StreamItem], as Vec<StreamItem>;
    /// The run ended (completed, paused, halted at a budget cap, failed).
    RunFinishedEvent "run-finished" => RunFinished, as RunFinished;
    /// Hashing progress of a source's files.
    IntakeProgressEvent "intake-progress" => IntakeProgress, as IntakeProgress;
    /// Paths dropped on the window, sniffed (the drafts `intake_paths` returns).
    IntakeDropped "intake-dropped" => [SourceDraft], as Vec<SourceDraft>;
}
