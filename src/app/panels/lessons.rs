//! The Learn window over [`AppState::lessons`]: the lesson and step shown, its Set up button,
//! its task and check (a state the app watches, or a question answered from the run on
//! screen), Back and Next; the status bar's Learn button and the first launch's offer.

use egui::{Color32, RichText};

use crate::app::lessons::{AnswerVerdict, Check, LESSON_COUNT, LessonProgress, lessons};
use crate::app::state::AppState;

/// The colour of a passed check (the status bar's "solved").
const PASSED: Color32 = Color32::LIGHT_GREEN;

/// The status bar's Learn button: opens or closes the Lessons window.
pub(super) fn learn_button(ui: &mut egui::Ui, st: &mut AppState) {
    let r = ui
        .button("Learn")
        .on_hover_text("Guided lessons: search, heuristics, IDA*, parity, on the app itself");
    if r.clicked() {
        st.view.lessons_open = !st.view.lessons_open;
        st.lessons.offered = true;
    }
}

/// The first launch's offer of lesson 1 (shown while it is not answered): Start opens it,
/// No thanks hides the offer for good; the Learn button stays.
pub(super) fn offer(ui: &mut egui::Ui, st: &mut AppState) {
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "New to search? Lesson 1 of {LESSON_COUNT} takes 5 minutes."
        ));
        if ui.button("Start lesson 1").clicked() {
            st.lessons.offered = true;
            st.lessons.open(0);
            st.view.lessons_open = true;
        }
        if ui.button("No thanks").clicked() {
            st.lessons.offered = true;
        }
        ui.weak("(the Learn button at the top left opens the lessons at any time)");
    });
}

/// The Lessons window, when open; closing it keeps the step (the lessons resume there).
pub(super) fn window(ui: &mut egui::Ui, st: &mut AppState) {
    if !st.view.lessons_open {
        return;
    }
    let screen = ui.ctx().content_rect();
    let mut open = true;
    egui::Window::new("Lessons")
        .open(&mut open)
        .default_width(380.0)
        // At the bottom left, over the Puzzle and Solver sections (the step's Set up picks
        // what they would) and the lower view's left edge: the run buttons, the board, the
        // inspector and the middle of the lower view (the tree, the heatmap) stay in sight.
        .pivot(egui::Align2::LEFT_BOTTOM)
        .default_pos(egui::pos2(screen.min.x + 4.0, screen.max.y - 4.0))
        .resizable(true)
        .show(ui.ctx(), |ui| {
            egui::ScrollArea::vertical()
                .max_height(screen.height() * 0.55)
                .show(ui, |ui| body(ui, st));
        });
    if !open {
        st.view.lessons_open = false;
    }
}

/// The lesson picker, the step, and Back / Next.
fn body(ui: &mut egui::Ui, st: &mut AppState) {
    picker(ui, &mut st.lessons);
    let p = &st.lessons;
    let lesson = p.lesson();
    // The lesson's aim on its first step (later steps need the room for their text).
    if p.step == 0 {
        ui.label(RichText::new(format!("You will be able to answer: {}", lesson.aim)).italics());
    }
    ui.separator();
    ui.strong(format!("Step {} of {}", p.step + 1, lesson.steps.len()));
    let step = p.step();
    ui.add(egui::Label::new(step.text).wrap());
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        if step.setup.is_some()
            && ui
                .button("Set up")
                .on_hover_text("Loads this step's board and picks its algorithm and heuristic")
                .clicked()
        {
            st.set_up_lesson();
        }
        ui.label(RichText::new(format!("To do: {}", step.task)).strong());
    });
    ui.add_space(4.0);
    match step.check {
        Check::State(_) => {
            if st.lessons.step_passed() {
                ui.colored_label(PASSED, "Done.");
            } else {
                ui.weak("Not done yet: the app watches for it.");
            }
        }
        Check::Answer { question, hint, .. } => question_box(ui, st, question, hint),
    }
    ui.separator();
    navigation(ui, &mut st.lessons);
}

/// The lesson menu: each lesson with how far the student got in it.
fn picker(ui: &mut egui::Ui, p: &mut LessonProgress) {
    let name = |i: usize| format!("{}. {}", i + 1, lessons()[i].title);
    let mut chosen = p.lesson.min(LESSON_COUNT - 1);
    egui::ComboBox::from_id_salt("lesson")
        .width(ui.available_width() - 8.0)
        .selected_text(name(chosen))
        .show_ui(ui, |ui| {
            for (i, l) in lessons().iter().enumerate() {
                let state = if p.is_done(i) {
                    " (done)".to_string()
                } else if p.passed_in(i) > 0 {
                    format!(" ({} of {} steps)", p.passed_in(i), l.steps.len())
                } else {
                    String::new()
                };
                ui.selectable_value(&mut chosen, i, format!("{}{state}", name(i)));
            }
        });
    p.open(chosen);
}

/// A step's question: the answer box, Check (or Enter), and the verdict.
fn question_box(ui: &mut egui::Ui, st: &mut AppState, question: &str, hint: &str) {
    let label = ui.label(question);
    ui.horizontal(|ui| {
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut st.lessons.answer)
                    .desired_width(100.0)
                    .hint_text("a number"),
            )
            .labelled_by(label.id);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Check").clicked() || enter {
            st.answer_lesson();
        }
    });
    let passed = st.lessons.step_passed();
    match (&st.lessons.verdict, passed) {
        (_, true) => {
            ui.colored_label(PASSED, "Right.");
        }
        (Some(AnswerVerdict::Wrong), _) => {
            ui.colored_label(
                Color32::from_rgb(230, 190, 90),
                format!("Not quite. {hint}"),
            );
        }
        (Some(AnswerVerdict::NotANumber), _) => {
            ui.label("Type a whole number, such as 12.");
        }
        (Some(AnswerVerdict::TaskFirst), _) => {
            ui.label("Do the task first (press Set up if the board is not this step's): the answer comes from the app's own run.");
        }
        _ => {}
    }
}

/// Back and Next (Next only once the step is passed).
fn navigation(ui: &mut egui::Ui, p: &mut LessonProgress) {
    ui.horizontal(|ui| {
        if ui
            .add_enabled(p.step > 0 || p.lesson > 0, egui::Button::new("Back"))
            .clicked()
        {
            p.go_back();
        }
        let last_step = p.step + 1 == p.lesson().steps.len();
        let next = if last_step { "Next lesson" } else { "Next" };
        if p.has_next()
            && ui
                .add_enabled(p.step_passed(), egui::Button::new(next))
                .on_disabled_hover_text("Do the task and pass the check first")
                .clicked()
        {
            p.go_next();
        }
        if !p.has_next() && p.step_passed() {
            let all = (0..LESSON_COUNT).all(|l| p.is_done(l));
            ui.colored_label(
                PASSED,
                if all {
                    "All lessons done."
                } else {
                    "Last lesson done: the menu above shows the lessons not yet done."
                },
            );
        }
    });
}
