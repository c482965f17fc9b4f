//! Race tests: for each lost-update finding of the store review, the racing pair is released
//! together many times (tasks on a multi-threaded runtime behind a barrier) and the invariant
//! is checked after every round.

use std::future::Future;
use std::sync::Arc;

use chrono::{Duration, Utc};
use highchair::auth::tokens::{ResetLinkToken, SessionToken};
use highchair::domain::child::{Child, ChildFields};
use highchair::domain::email::Email;
use highchair::domain::ids::{ChildId, FamilyId, MediaId, UserId};
use highchair::domain::meal::{Meal, MealFields, MealType, Mood, Portion};
use highchair::domain::user::SignupDraft;
use highchair::service::{accounts, photos, sessions};
use highchair::store::WriteError;
use highchair::store::media::{MediaRecord, Variant};
use tokio::sync::Barrier;

use crate::harness::TestServer;

const ROUNDS: usize = 60;

/// Runs `a` and `b` at the same moment on two worker threads; returns both results.
async fn together<A, B>(
    a: impl Future<Output = A> + Send + 'static,
    b: impl Future<Output = B> + Send + 'static,
) -> (A, B)
where
    A: Send + 'static,
    B: Send + 'static,
{
    let barrier = Arc::new(Barrier::new(2));
    let (ba, bb) = (barrier.clone(), barrier);
    let ta = tokio::spawn(async move {
        ba.wait().await;
        a.await
    });
    let tb = tokio::spawn(async move {
        bb.wait().await;
        b.await
    });
    (ta.await.unwrap(), tb.await.unwrap())
}

/// A parent account, made by the service (no HTTP sign-up limit, no session).
async fn parent(server: &TestServer, email: &str) -> (UserId, FamilyId) {
    let signup = SignupDraft {
        first_name: "Amira".into(),
        last_name: "Khan".into(),
        email: email.into(),
        password: "correct horse".into(),
        role: "mom".into(),
        accept_terms: true,
    }
    .validate()
    .unwrap();
    let user = accounts::create_parent(&server.app, signup, true)
        .await
        .unwrap();
    (user.id, user.family_id)
}

async fn child(server: &TestServer, family: FamilyId) -> Child {
    let fields = ChildFields {
        name: "Emma".into(),
        age: Some(3),
        dietary_restrictions: vec![],
        allergies: vec![],
        birth_month: None,
    };
    server
        .app
        .store()
        .children
        .insert(&Child::create(family, fields, Utc::now()))
        .await
        .unwrap()
}

fn meal(family: FamilyId, child: ChildId, photo: Option<MediaId>) -> Meal {
    let now = Utc::now();
    Meal::create(
        family,
        MealFields {
            child_id: child,
            meal_type: MealType::Lunch,
            foods: vec!["Pasta".into()],
            portion: Portion::Full,
            mood: Mood::Happy,
            feedback: None,
            notes: String::new(),
            photo,
            meal_date: now,
            reaction: Default::default(),
            reaction_note: String::new(),
        },
        now,
    )
}

/// An upload, stored without the image pipeline.
async fn upload(server: &TestServer, family: FamilyId, age: Duration) -> MediaId {
    let record = MediaRecord {
        id: MediaId::new(),
        family,
        version: 1,
        width: 1,
        height: 1,
        attached: false,
        created_at: Utc::now() - age,
        bytes: 0,
    };
    server
        .app
        .store()
        .media
        .insert(
            &record,
            &[(Variant::Full, b"full"), (Variant::Thumb, b"thumb")],
        )
        .await
        .unwrap();
    record.id
}

/// Makes the next session check write "last seen" for the user and the session.
async fn make_seen_stale(server: &TestServer, user: UserId, token_hash: [u8; 32]) {
    let long_ago = Utc::now() - Duration::hours(3);
    server
        .app
        .store()
        .users
        .update_quietly(user, move |u| u.last_seen_at = long_ago)
        .await
        .unwrap();
    server
        .app
        .store()
        .sessions
        .touch(&token_hash, long_ago, Utc::now() + Duration::days(1))
        .await
        .unwrap();
}

// Finding 1: the sign-in "last seen" write raced a profile or password change and put the old
// values back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn last_seen_never_undoes_a_profile_or_password_change() {
    let server = TestServer::start().await;
    let (user, _) = parent(&server, "mum@example.org").await;
    let me = server.app.store().users.get(user).await.unwrap().unwrap();
    let started = sessions::start(&server.app, &me).await.unwrap();
    let hash = highchair::auth::tokens::token_hash(&started.token);
    for round in 0..ROUNDS {
        make_seen_stale(&server, user, hash).await;
        let name = format!("Name{round}");
        let hash_value = format!("hash-{round}");
        let (a, b) = (server.app.clone(), server.app.clone());
        let token = started.token.clone();
        let (seen, changed) = together(
            async move {
                sessions::resume(&a, &SessionToken::from_client(&token))
                    .await
                    .unwrap()
            },
            {
                let (name, hash_value) = (name.clone(), hash_value.clone());
                async move {
                    b.store()
                        .users
                        .update(user, None, |u| {
                            u.first_name = name.clone();
                            u.password_hash = hash_value.clone();
                            Ok(())
                        })
                        .await
                        .unwrap()
                }
            },
        )
        .await;
        assert!(seen.is_some());
        let now = server.app.store().users.get(user).await.unwrap().unwrap();
        assert_eq!(now.first_name, name, "round {round}: the new name is kept");
        assert_eq!(now.password_hash, hash_value, "round {round}: no old hash");
        assert_eq!(now.version, changed.version, "last seen keeps the version");
    }
}

// Finding 1 (photos): a new avatar racing "last seen" was dropped and its photo orphaned.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_new_avatar_survives_last_seen_and_the_old_one_is_removed() {
    let server = TestServer::start().await;
    let (user, family) = parent(&server, "mum@example.org").await;
    let me = server.app.store().users.get(user).await.unwrap().unwrap();
    let started = sessions::start(&server.app, &me).await.unwrap();
    let hash = highchair::auth::tokens::token_hash(&started.token);
    let jpeg = highchair::media::fixtures::two_colour_jpeg(16, 16);
    for round in 0..20 {
        make_seen_stale(&server, user, hash).await;
        let (a, b) = (server.app.clone(), server.app.clone());
        let (token, bytes) = (started.token.clone(), jpeg.clone());
        let (_, updated) = together(
            async move {
                sessions::resume(&a, &SessionToken::from_client(&token))
                    .await
                    .unwrap()
            },
            async move { photos::set_avatar(&b, user, bytes).await.unwrap() },
        )
        .await;
        let now = server.app.store().users.get(user).await.unwrap().unwrap();
        assert_eq!(now.avatar, updated.avatar, "round {round}: avatar kept");
        let avatar = now.avatar.unwrap();
        assert!(
            server
                .app
                .store()
                .media
                .get(family, avatar)
                .await
                .unwrap()
                .unwrap()
                .attached
        );
        assert_eq!(
            server.app.store().media.count().await.unwrap(),
            1,
            "round {round}: no orphan"
        );
    }
}

// Finding 2: two concurrent edits of one meal left it twice in the time index, and a photo
// replaced by one of them was never purged.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_meal_edits_keep_one_index_entry_and_one_photo() {
    let server = TestServer::start().await;
    let (_, family) = parent(&server, "mum@example.org").await;
    let kid = child(&server, family).await;
    let first = upload(&server, family, Duration::zero()).await;
    let m = server
        .app
        .store()
        .meals
        .insert(&meal(family, kid.id, Some(first)))
        .await
        .unwrap();
    for round in 0..ROUNDS {
        let (pa, pb) = (
            upload(&server, family, Duration::zero()).await,
            upload(&server, family, Duration::zero()).await,
        );
        let (a, b) = (server.app.clone(), server.app.clone());
        let (ra, rb) = together(
            async move {
                a.store()
                    .meals
                    .update(family, m.id, None, |meal| {
                        meal.meal_date = Utc::now() - Duration::days(1);
                        meal.photo = Some(pa);
                        Ok(())
                    })
                    .await
            },
            async move {
                b.store()
                    .meals
                    .update(family, m.id, None, |meal| {
                        meal.meal_date = Utc::now() - Duration::days(2);
                        meal.photo = Some(pb);
                        Ok(())
                    })
                    .await
            },
        )
        .await;
        // Both landed, one after the other; the second replaced the first one's photo.
        ra.unwrap();
        rb.unwrap();
        let (all, _) = server
            .app
            .store()
            .meals
            .page(family, None, None, 200)
            .await
            .unwrap();
        assert_eq!(all.len(), 1, "round {round}: listed once");
        let (of_child, _) = server
            .app
            .store()
            .meals
            .page(family, Some(kid.id), None, 200)
            .await
            .unwrap();
        assert_eq!(
            of_child.len(),
            1,
            "round {round}: listed once for the child"
        );
        let now = server
            .app
            .store()
            .meals
            .get(family, m.id)
            .await
            .unwrap()
            .unwrap();
        assert!(now.photo == Some(pa) || now.photo == Some(pb));
        assert_eq!(
            server.app.store().media.count().await.unwrap(),
            1,
            "round {round}: replaced photos purged"
        );
    }
}

// Finding 3: logout (or a reset) racing a request that refreshed the same session recreated
// it without its index entry, and it kept working.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_session_ended_while_it_is_refreshed_stays_ended() {
    let server = TestServer::start().await;
    let (user, _) = parent(&server, "mum@example.org").await;
    for round in 0..ROUNDS {
        let me = server.app.store().users.get(user).await.unwrap().unwrap();
        let started = sessions::start(&server.app, &me).await.unwrap();
        let hash = highchair::auth::tokens::token_hash(&started.token);
        make_seen_stale(&server, user, hash).await;
        let (a, b) = (server.app.clone(), server.app.clone());
        let token = started.token.clone();
        together(
            async move {
                sessions::resume(&a, &SessionToken::from_client(&token))
                    .await
                    .unwrap()
            },
            async move { sessions::end(&b, &hash).await.unwrap() },
        )
        .await;
        assert!(
            sessions::resume(&server.app, &SessionToken::from_client(&started.token))
                .await
                .unwrap()
                .is_none(),
            "round {round}: ended"
        );
        assert!(
            server
                .app
                .store()
                .sessions
                .get(&hash)
                .await
                .unwrap()
                .is_none()
        );
    }
    assert_eq!(
        server.app.store().sessions.count_for(user).await.unwrap(),
        0,
        "index and sessions agree"
    );
}

// Finding 3 (reset): a sign-in finishing while the password is reset must not leave a session
// that outlives the reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_session_started_before_a_reset_survives_it() {
    let server = TestServer::start().await;
    let (user, _) = parent(&server, "mum@example.org").await;
    let email = Email::parse("mum@example.org").unwrap();
    for round in 0..20 {
        let link = accounts::create_reset_link(&server.app, &email)
            .await
            .unwrap();
        let token = link.rsplit('/').next().unwrap().to_string();
        let old_password = if round == 0 {
            "correct horse".to_string()
        } else {
            format!("password {}", round - 1)
        };
        let (a, b) = (server.app.clone(), server.app.clone());
        let new_password = format!("password {round}");
        let (signed_in, _) = together(
            async move {
                let user = accounts::login(
                    &a,
                    "mum@example.org",
                    &old_password,
                    accounts::Client {
                        key: &highchair::auth::ClientKey::of(Some([10, 0, 0, 1].into())),
                        device_cookie: None,
                    },
                )
                .await
                .ok()?;
                sessions::start(&a, &user.user).await.ok()
            },
            async move {
                accounts::reset_password(&b, &ResetLinkToken::from_client(&token), new_password)
                    .await
                    .unwrap()
            },
        )
        .await;
        if let Some(started) = signed_in {
            assert!(
                sessions::resume(&server.app, &SessionToken::from_client(&started.token))
                    .await
                    .unwrap()
                    .is_none(),
                "round {round}: a session from the old password is over"
            );
        }
    }
    let _ = user;
}

// Finding 4: a meal created for a child deleted a moment before landed as an orphan.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_meal_lands_for_a_child_being_deleted() {
    let server = TestServer::start().await;
    let (_, family) = parent(&server, "mum@example.org").await;
    let mut landed = 0;
    for round in 0..ROUNDS {
        let kid = child(&server, family).await;
        let (a, b) = (server.app.clone(), server.app.clone());
        let new_meal = meal(family, kid.id, None);
        let (created, _) = together(
            async move { a.store().meals.insert(&new_meal).await },
            async move { b.store().children.delete(family, kid.id).await.unwrap() },
        )
        .await;
        match created {
            Ok(_) => landed += 1,
            Err(WriteError::MissingParent) => {}
            Err(e) => panic!("round {round}: {e}"),
        }
        highchair::jobs::run_pending(server.app.store())
            .await
            .unwrap();
        // Asked by the child's own index, with the deleted child counted as live: nothing.
        let (left, _) = server
            .app
            .store()
            .meals
            .page(family, Some(kid.id), None, 200)
            .await
            .unwrap();
        assert!(left.is_empty(), "round {round}: no orphan meal");
    }
    let (all, _) = server
        .app
        .store()
        .meals
        .page(family, None, None, 200)
        .await
        .unwrap();
    assert!(all.is_empty());
    // Both orders happen; the invariant holds either way.
    eprintln!("meals that landed before the delete: {landed}/{ROUNDS}");
}

// Finding 5: purging unattached uploads did not re-check and deleted a photo attached
// meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn purging_uploads_never_removes_a_photo_a_meal_just_took() {
    let server = TestServer::start().await;
    let (_, family) = parent(&server, "mum@example.org").await;
    let kid = child(&server, family).await;
    for round in 0..ROUNDS {
        let photo = upload(&server, family, Duration::days(2)).await;
        let (a, b) = (server.app.clone(), server.app.clone());
        let new_meal = meal(family, kid.id, Some(photo));
        let (created, _) = together(
            async move { a.store().meals.insert(&new_meal).await },
            async move {
                b.store()
                    .media
                    .purge_unattached(Utc::now() - Duration::days(1))
                    .await
                    .unwrap()
            },
        )
        .await;
        let stored = server.app.store().media.get(family, photo).await.unwrap();
        match created {
            Ok(m) => {
                assert_eq!(m.photo, Some(photo));
                assert!(
                    stored.is_some_and(|r| r.attached),
                    "round {round}: the meal's photo is kept"
                );
            }
            Err(WriteError::PhotoMissing) => {
                assert!(
                    stored.is_none(),
                    "round {round}: purged, and no meal uses it"
                );
            }
            Err(e) => panic!("round {round}: {e}"),
        }
    }
}

// Finding 6: deleting an account is one step: once it returns nothing of the account works,
// and a sign-in racing it leaves no usable session.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_account_deleted_during_a_sign_in_leaves_nothing_usable() {
    let server = TestServer::start().await;
    for round in 0..20 {
        let email = format!("p{round}@example.org");
        let (user, family) = parent(&server, &email).await;
        let kid = child(&server, family).await;
        server
            .app
            .store()
            .meals
            .insert(&meal(family, kid.id, None))
            .await
            .unwrap();
        let (a, b) = (server.app.clone(), server.app.clone());
        let (started, _) = together(
            async move {
                let me = a.store().users.get(user).await.ok()??;
                sessions::start(&a, &me).await.ok()
            },
            async move { accounts::delete_account(&b, user).await.unwrap() },
        )
        .await;
        if let Some(started) = started {
            assert!(
                sessions::resume(&server.app, &SessionToken::from_client(&started.token))
                    .await
                    .unwrap()
                    .is_none(),
                "round {round}"
            );
        }
        highchair::jobs::run_pending(server.app.store())
            .await
            .unwrap();
        assert!(
            server
                .app
                .store()
                .children
                .list(family)
                .await
                .unwrap()
                .is_empty()
        );
        let late = Child::create(
            family,
            ChildFields {
                name: "Late".into(),
                age: None,
                dietary_restrictions: vec![],
                allergies: vec![],
                birth_month: None,
            },
            Utc::now(),
        );
        assert!(
            matches!(
                server.app.store().children.insert(&late).await,
                Err(WriteError::NotFound)
            ),
            "round {round}: nothing can be written for a deleted family"
        );
    }
}

// Finding 6: a child with many meals is removed in bounded batches, and a job cut off by a
// stop resumes when the store is opened again.
#[tokio::test]
async fn deleting_a_child_with_many_meals_is_batched_and_resumes_after_a_stop() {
    let server = TestServer::start().await;
    let (_, family) = parent(&server, "mum@example.org").await;
    let kid = child(&server, family).await;
    let other = child(&server, family).await;
    for _ in 0..250 {
        server
            .app
            .store()
            .meals
            .insert(&meal(family, kid.id, None))
            .await
            .unwrap();
    }
    server
        .app
        .store()
        .meals
        .insert(&meal(family, other.id, None))
        .await
        .unwrap();
    // The delete happens with no runner (the store opened on its own, as the CLI does), and
    // the process ends with the job unfinished: the next start must finish it.
    let dir = server.stop().await;
    {
        let store = highchair::store::Store::open(&dir.path().join("data"), 8).unwrap();
        store.children.delete(family, kid.id).await.unwrap();
        let (visible, _) = store.meals.page(family, None, None, 200).await.unwrap();
        assert_eq!(visible.len(), 1, "the child's meals disappear at once");
        let job = store.jobs.pending().await.unwrap().remove(0);
        assert!(
            !store.run_job_batch(&job).await.unwrap(),
            "one batch is not all"
        );
        assert_eq!(store.jobs.pending().await.unwrap().len(), 1);
    }
    let server = TestServer::start_in(dir, |_| {}).await;
    let store = &server.app.store();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !store.jobs.pending().await.unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the job resumed and finished"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (left, _) = store
        .meals
        .page(family, Some(kid.id), None, 200)
        .await
        .unwrap();
    assert!(left.is_empty());
    let (kept, _) = store.meals.page(family, None, None, 200).await.unwrap();
    assert_eq!(kept.len(), 1, "the other child's meal is kept");
}
