//! Accounts over HTTP: sign-up, sign-in, guests, sessions, profile, resets, limits.

use chrono::Utc;
use serde_json::{Value, json};

use crate::harness::{TestServer, error, json, logs, sign_up, signed_in_as};

fn signup_body(overrides: Value) -> Value {
    let mut body = json!({
        "firstName": "Amira", "lastName": "Khan", "email": "amira@example.org",
        "password": "correct horse", "role": "mom", "acceptTerms": true
    });
    for (k, v) in overrides.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

fn set_cookie(resp: &reqwest::Response) -> String {
    resp.headers()["set-cookie"].to_str().unwrap().to_string()
}

#[tokio::test]
async fn signup_validation_uses_the_spec_texts() {
    let server = TestServer::start().await;
    let cases = [
        (
            json!({"lastName": ""}),
            "Missing information",
            "Please fill in all required fields",
            Some("lastName"),
        ),
        (
            json!({"firstName": " "}),
            "Missing information",
            "Please fill in all required fields",
            Some("firstName"),
        ),
        (
            json!({"email": "", "password": ""}),
            "Sign up failed",
            "You must provide either an email or phone number and a password",
            None,
        ),
        (
            json!({"password": "seven77"}),
            "Password too short",
            "Password must be at least 8 characters",
            Some("password"),
        ),
        (
            json!({"acceptTerms": false}),
            "Terms not accepted",
            "You must agree to the Terms of Service and Privacy Policy",
            Some("acceptTerms"),
        ),
        (
            json!({"email": "not-an-email"}),
            "Invalid email",
            "Please enter a valid email address",
            Some("email"),
        ),
        (
            json!({"role": "uncle"}),
            "Sign up failed",
            "Please choose Mom or Dad",
            Some("role"),
        ),
        (
            json!({"firstName": "x".repeat(101)}),
            "Sign up failed",
            "First name must be 100 characters or less",
            Some("firstName"),
        ),
    ];
    for (overrides, title, message, field) in cases {
        let (t, m, f) = error(
            server
                .post_json("/api/auth/signup", signup_body(overrides.clone()))
                .await,
            400,
        )
        .await;
        assert_eq!(
            (t.as_str(), m.as_str(), f.as_deref()),
            (title, message, field),
            "{overrides}"
        );
    }
    assert!(server.app.store().users.is_empty().await.unwrap());
}

#[tokio::test]
async fn signup_signs_in_with_a_safe_cookie_and_the_first_account_is_admin() {
    let server = TestServer::start().await;
    let resp = server
        .post_json(
            "/api/auth/signup",
            signup_body(json!({"email": "Amira@Example.org", "role": "dad"})),
        )
        .await;
    let cookie = set_cookie(&resp);
    assert!(cookie.starts_with("highchair_session="), "{cookie}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(cookie.contains(flag), "{flag} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: no Secure flag");
    let body = json(resp, 201).await;
    assert_eq!(body["user"]["email"], "amira@example.org");
    assert_eq!(body["user"]["role"], "dad");
    assert_eq!(body["user"]["isAdmin"], true);
    assert!(body["expiresAt"].is_string());
    let text = body.to_string();
    assert!(
        !text.contains("correct horse")
            && !text.contains("pbkdf2")
            && !text.contains("highchair_session")
    );

    let session = json(server.get("/api/auth/session").await, 200).await;
    assert_eq!(session["user"]["firstName"], "Amira");

    let other = server.new_client();
    let second = sign_up(&server, &other, "dan@example.org", "another pw").await;
    assert_eq!(second["user"]["isAdmin"], false);
}

#[tokio::test]
async fn cookies_are_secure_behind_https() {
    let server =
        TestServer::start_with(|s| s.server.trusted_proxies = vec!["127.0.0.1".into()]).await;
    let resp = server
        .client
        .post(server.url("/api/auth/signup"))
        .header("x-forwarded-proto", "https")
        .json(&signup_body(json!({})))
        .send()
        .await
        .unwrap();
    assert!(set_cookie(&resp).ends_with("; Secure"));

    // An untrusted peer cannot claim HTTPS...
    let server = TestServer::start().await;
    let resp = server
        .client
        .post(server.url("/api/auth/signup"))
        .header("x-forwarded-proto", "https")
        .json(&signup_body(json!({})))
        .send()
        .await
        .unwrap();
    assert!(!set_cookie(&resp).contains("Secure"));

    // ...but an https public_url always means Secure.
    let server =
        TestServer::start_with(|s| s.server.public_url = "https://meals.example.org".into()).await;
    let resp = server
        .post_json("/api/auth/signup", signup_body(json!({})))
        .await;
    assert!(set_cookie(&resp).ends_with("; Secure"));
}

#[tokio::test]
async fn emails_are_unique_ignoring_case() {
    let server = TestServer::start().await;
    json(
        server
            .post_json("/api/auth/signup", signup_body(json!({})))
            .await,
        201,
    )
    .await;
    let other = server.new_client();
    let resp = other
        .post(server.url("/api/auth/signup"))
        .json(&signup_body(json!({"email": "AMIRA@example.ORG"})))
        .send()
        .await
        .unwrap();
    let (title, message, _) = error(resp, 409).await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        (
            "Sign up failed",
            "An account with this email already exists"
        )
    );
}

#[tokio::test]
async fn login_answers_the_same_for_unknown_email_and_wrong_password() {
    let server = TestServer::start().await;
    sign_up(
        &server,
        &server.new_client(),
        "amira@example.org",
        "correct horse",
    )
    .await;

    let (t, m, _) = error(
        server
            .post_json("/api/auth/login", json!({"email": "amira@example.org"}))
            .await,
        400,
    )
    .await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Missing information",
            "Please enter both email and password"
        )
    );

    let wrong = server
        .post_json(
            "/api/auth/login",
            json!({"email": "amira@example.org", "password": "wrong horse"}),
        )
        .await;
    let wrong = (wrong.status(), wrong.text().await.unwrap());
    let unknown = server
        .post_json(
            "/api/auth/login",
            json!({"email": "nobody@example.org", "password": "wrong horse"}),
        )
        .await;
    let unknown = (unknown.status(), unknown.text().await.unwrap());
    assert_eq!(wrong.0, 401);
    assert_eq!(wrong, unknown, "no hint whether the e-mail exists");
    let body: Value = serde_json::from_str(&wrong.1).unwrap();
    assert_eq!(body["title"], "Sign in failed");
    assert_eq!(body["message"], "Invalid email or password");

    let resp = server
        .post_json(
            "/api/auth/login",
            json!({"email": "AMIRA@example.org", "password": "correct horse"}),
        )
        .await;
    assert!(set_cookie(&resp).starts_with("highchair_session="));
    assert_eq!(json(resp, 200).await["user"]["email"], "amira@example.org");
    assert_eq!(
        signed_in_as(&server, &server.client).await.as_deref(),
        Some("amira@example.org")
    );
}

#[tokio::test]
async fn sessions_survive_a_restart_and_end_at_logout() {
    let server = TestServer::start().await;
    sign_up(
        &server,
        &server.client,
        "amira@example.org",
        "correct horse",
    )
    .await;
    let server = server.restart().await;
    let client = server.client.clone();
    assert!(
        signed_in_as(&server, &client).await.is_some(),
        "the cookie still works after a restart"
    );

    let resp = client
        .post(server.url("/api/auth/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    assert!(set_cookie(&resp).contains("Max-Age=0"));
    assert_eq!(signed_in_as(&server, &client).await, None);
    let (title, message, _) = error(
        client.get(server.url("/api/profile")).send().await.unwrap(),
        401,
    )
    .await;
    assert_eq!(title, "Authentication required");
    assert!(message.starts_with("You must be logged in to"));
    assert!(server.app.store().sessions.is_empty().await.unwrap());

    // Logging out without a session is harmless.
    assert_eq!(
        client
            .post(server.url("/api/auth/logout"))
            .send()
            .await
            .unwrap()
            .status(),
        204
    );
}

#[tokio::test]
async fn an_old_cookie_value_replayed_after_logout_is_refused() {
    let server = TestServer::start().await;
    let resp = server
        .post_json("/api/auth/signup", signup_body(json!({})))
        .await;
    let cookie = set_cookie(&resp);
    let token = cookie.split(';').next().unwrap().to_string();
    server
        .client
        .post(server.url("/api/auth/logout"))
        .send()
        .await
        .unwrap();
    let replay = reqwest::Client::new()
        .get(server.url("/api/auth/session"))
        .header("cookie", token)
        .send()
        .await
        .unwrap();
    assert!(json(replay, 200).await["user"].is_null());
}

/// The token of a fresh reset link for `email` (as `highchair user reset-password` makes).
async fn reset_token(server: &TestServer, email: &str) -> String {
    let link = highchair::admin::ops::reset_password(&server.app, email)
        .await
        .unwrap()
        .link;
    link.rsplit('/').next().unwrap().to_string()
}

async fn use_reset_link(server: &TestServer, token: &str, password: &str) -> reqwest::Response {
    server
        .new_client()
        .post(server.url(&format!("/api/auth/reset-password/{token}")))
        .json(&json!({ "password": password }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn only_the_newest_reset_link_works_and_a_password_change_revokes_the_rest() {
    let server = TestServer::start().await;
    sign_up(&server, &server.client, "amira@example.org", "old password").await;

    let older = reset_token(&server, "amira@example.org").await;
    let newer = reset_token(&server, "amira@example.org").await;
    let check = |token: &str| server.url(&format!("/api/auth/reset-password/{token}"));
    let status = |url: String| async move { reqwest::get(url).await.unwrap().status() };
    assert_eq!(
        status(check(&older)).await,
        404,
        "a new link revokes the older one"
    );
    assert_eq!(status(check(&newer)).await, 200);
    error(
        use_reset_link(&server, &older, "attacker's choice").await,
        404,
    )
    .await;
    json(use_reset_link(&server, &newer, "new password").await, 200).await;

    // A link made before a password change (here a reset through another link) is revoked
    // by it, even if it was never superseded by issuing.
    let first = reset_token(&server, "amira@example.org").await;
    let stale = {
        let record = server
            .app
            .store()
            .reset_tokens
            .get_valid(
                &highchair::auth::tokens::token_hash(&first),
                chrono::Utc::now(),
            )
            .await
            .unwrap()
            .unwrap();
        // Re-insert it under a second key, as if two links were live at once.
        let key = highchair::auth::tokens::token_hash("a-second-live-link");
        server
            .app
            .store()
            .reset_tokens
            .insert(&key, &record)
            .await
            .unwrap();
        "a-second-live-link"
    };
    json(
        use_reset_link(&server, &first, "newest password").await,
        200,
    )
    .await;
    error(
        use_reset_link(&server, stale, "attacker's choice").await,
        404,
    )
    .await;
    json(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": "newest password"}),
            )
            .await,
        200,
    )
    .await;
}

#[tokio::test]
async fn password_reset_link_sets_a_new_password_and_ends_other_sessions() {
    let server = TestServer::start().await;
    let phone = server.new_client();
    sign_up(&server, &phone, "amira@example.org", "old password").await;
    let laptop = server.new_client();
    json(
        laptop
            .post(server.url("/api/auth/login"))
            .json(&json!({"email": "amira@example.org", "password": "old password"}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;

    let link = highchair::admin::ops::reset_password(&server.app, "amira@example.org")
        .await
        .unwrap()
        .link;
    let path = link
        .strip_prefix(&server.app.settings().base_url())
        .unwrap()
        .to_string();
    assert!(path.starts_with("/reset-password/"));
    let token = path.trim_start_matches("/reset-password/").to_string();
    assert_eq!(
        server.get(&path).await.status(),
        200,
        "the link opens the UI page"
    );

    let check = json(
        server
            .get(&format!("/api/auth/reset-password/{token}"))
            .await,
        200,
    )
    .await;
    assert_eq!(check["firstName"], "Amira");

    let (title, message, _) = error(
        server
            .post_json(
                &format!("/api/auth/reset-password/{token}"),
                json!({"password": "short"}),
            )
            .await,
        400,
    )
    .await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        (
            "Password too short",
            "Password must be at least 8 characters"
        )
    );

    let browser = server.new_client();
    let resp = browser
        .post(server.url(&format!("/api/auth/reset-password/{token}")))
        .json(&json!({"password": "new password!"}))
        .send()
        .await
        .unwrap();
    assert_eq!(json(resp, 200).await["user"]["email"], "amira@example.org");
    assert!(signed_in_as(&server, &browser).await.is_some(), "signed in");
    for old in [&phone, &laptop] {
        assert_eq!(
            signed_in_as(&server, old).await,
            None,
            "other sessions ended"
        );
    }
    error(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": "old password"}),
            )
            .await,
        401,
    )
    .await;
    json(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": "new password!"}),
            )
            .await,
        200,
    )
    .await;

    // One use only; unknown and expired links are 404.
    error(
        server
            .post_json(
                &format!("/api/auth/reset-password/{token}"),
                json!({"password": "third password"}),
            )
            .await,
        404,
    )
    .await;
    error(
        server
            .get(&format!("/api/auth/reset-password/{token}"))
            .await,
        404,
    )
    .await;
    error(server.get("/api/auth/reset-password/made-up").await, 404).await;
    let expired = highchair::auth::tokens::new_token();
    let user = server.app.store().users.list().await.unwrap().remove(0);
    server
        .app
        .store()
        .reset_tokens
        .insert(
            &highchair::auth::tokens::token_hash(&expired),
            &highchair::store::reset_tokens::ResetToken {
                user_id: user.id,
                expires_at: Utc::now() - chrono::Duration::minutes(1),
                epoch: user.session_epoch,
            },
        )
        .await
        .unwrap();
    error(
        server
            .get(&format!("/api/auth/reset-password/{expired}"))
            .await,
        404,
    )
    .await;
    assert!(!logs().contains(&token), "reset tokens are never logged");
}

#[tokio::test]
async fn forgot_password_explains_the_admin_reset() {
    let server = TestServer::start().await;
    for email in ["amira@example.org", "nobody@example.org"] {
        let body = json(
            server
                .post_json("/api/auth/forgot-password", json!({"email": email}))
                .await,
            202,
        )
        .await;
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains("highchair user reset-password"),
            "{message}"
        );
        assert!(
            !message.contains('`'),
            "plain text, shown as it is: {message}"
        );
    }
    // Both requests reach the admin (`highchair messages`), and say nothing to the visitor
    // about which address has an account.
    let stored = server.app.store().contact_messages.list().await.unwrap();
    let texts: Vec<_> = stored.iter().map(|m| m.message.as_str()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("reset-password amira@example.org"))
    );
}

#[tokio::test]
async fn guests_get_a_generated_account_and_are_signed_in() {
    let server = TestServer::start().await;
    let resp = server
        .post_json(
            "/api/auth/guest",
            json!({"firstName": " Sam ", "children": 3}),
        )
        .await;
    assert!(set_cookie(&resp).starts_with("highchair_session="));
    let body = json(resp, 201).await;
    let user = &body["user"];
    assert_eq!(user["firstName"], "Guest_Sam");
    assert_eq!(user["lastName"], "");
    assert_eq!(user["role"], "guest");
    assert_eq!(user["isGuest"], true);
    let email = user["email"].as_str().unwrap();
    let (local, domain) = email.split_once('@').unwrap();
    assert_eq!(domain, "guest.invalid");
    assert_eq!(local.len(), 10);
    assert_eq!(
        signed_in_as(&server, &server.client).await.as_deref(),
        Some(email)
    );

    let stored = server
        .app
        .store()
        .users
        .get_by_email(&highchair::domain::email::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.guest_children, Some(3));
    assert!(stored.password_hash.starts_with("pbkdf2-sha256$"));
    // The three children asked for are there to rename and log meals for.
    let kids = json(server.get("/api/children").await, 200).await;
    let names: Vec<_> = kids
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Child 1", "Child 2", "Child 3"]);

    let other = server.new_client();
    let fallback = json(
        other
            .post(server.url("/api/auth/guest"))
            .json(&json!({"firstName": "Kim", "children": "lots"}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(fallback["user"]["firstName"], "Guest_Kim");
    let (t, m, _) = error(
        server
            .post_json("/api/auth/guest", json!({"firstName": ""}))
            .await,
        400,
    )
    .await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        ("Name required", "Please enter your first name")
    );
    error(
        server
            .post_json(
                "/api/auth/guest",
                json!({"firstName": "Kim", "children": 11}),
            )
            .await,
        400,
    )
    .await;
}

#[tokio::test]
async fn guests_and_signup_can_be_turned_off_but_the_first_account_always_works() {
    let server = TestServer::start_with(|s| {
        s.auth.allow_guests = false;
        s.auth.allow_signup = false;
    })
    .await;
    let (t, m, _) = error(
        server
            .post_json("/api/auth/guest", json!({"firstName": "Sam"}))
            .await,
        403,
    )
    .await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Guest access failed",
            "Guest access is turned off on this server."
        )
    );

    assert_eq!(
        json(server.get("/api/site").await, 200).await["signupOpen"],
        true
    );
    let first = sign_up(
        &server,
        &server.new_client(),
        "amira@example.org",
        "correct horse",
    )
    .await;
    assert_eq!(
        first["user"]["isAdmin"], true,
        "the very first account is the admin"
    );
    assert_eq!(
        json(server.get("/api/site").await, 200).await["signupOpen"],
        false
    );
    let resp = server
        .new_client()
        .post(server.url("/api/auth/signup"))
        .json(&signup_body(json!({"email": "dan@example.org"})))
        .send()
        .await
        .unwrap();
    let (t, m, _) = error(resp, 403).await;
    assert_eq!(t, "Sign up failed");
    assert!(m.contains("Sign-up is closed on this server"), "{m}");
}

#[tokio::test]
async fn old_password_hashes_are_upgraded_at_the_next_sign_in() {
    let server = TestServer::start().await;
    sign_up(
        &server,
        &server.new_client(),
        "amira@example.org",
        "correct horse",
    )
    .await;
    let before = server.app.store().users.list().await.unwrap()[0]
        .password_hash
        .clone();
    assert!(before.starts_with("pbkdf2-sha256$1000$"), "{before}");

    let server = server.restart_tuned(2_000).await;
    json(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": "correct horse"}),
            )
            .await,
        200,
    )
    .await;
    let after = server.app.store().users.list().await.unwrap()[0]
        .password_hash
        .clone();
    assert!(after.starts_with("pbkdf2-sha256$2000$"), "{after}");
    json(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": "correct horse"}),
            )
            .await,
        200,
    )
    .await;
}

#[tokio::test]
async fn profile_shows_and_changes_names_but_not_the_email() {
    let server = TestServer::start().await;
    let (t, m, _) = error(server.get("/api/profile").await, 401).await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Authentication required",
            "You must be logged in to view your profile"
        )
    );
    let (t, _, _) = error(
        server
            .client
            .patch(server.url("/api/profile"))
            .json(&json!({"firstName": "X"}))
            .send()
            .await
            .unwrap(),
        401,
    )
    .await;
    assert_eq!(t, "Authentication error");

    sign_up(
        &server,
        &server.client,
        "amira@example.org",
        "correct horse",
    )
    .await;
    let profile = json(server.get("/api/profile").await, 200).await;
    assert_eq!(
        (profile["firstName"].as_str(), profile["role"].as_str()),
        (Some("Amira"), Some("mom"))
    );

    let resp = server
        .client
        .patch(server.url("/api/profile"))
        .json(
            &json!({"firstName": " Ami ", "lastName": "Khan-Lee", "email": "evil@example.org",
                      "version": profile["version"]}),
        )
        .send()
        .await
        .unwrap();
    let updated = json(resp, 200).await;
    assert_eq!(updated["firstName"], "Ami");
    assert_eq!(updated["lastName"], "Khan-Lee");
    assert_eq!(updated["email"], "amira@example.org", "e-mail is read-only");

    let server = server.restart().await;
    assert_eq!(
        json(server.get("/api/profile").await, 200).await["firstName"],
        "Ami",
        "saved to disk"
    );
    let (t, m, f) = error(
        server
            .client
            .patch(server.url("/api/profile"))
            .json(&json!({"firstName": ""}))
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(
        (t.as_str(), m.as_str(), f.as_deref()),
        (
            "Update failed",
            "Please enter your first name",
            Some("firstName")
        )
    );
}

#[tokio::test]
async fn deleting_an_account_ends_its_sessions_and_frees_the_email() {
    let server = TestServer::start().await;
    sign_up(
        &server,
        &server.client,
        "amira@example.org",
        "correct horse",
    )
    .await;
    highchair::admin::ops::delete_user(&server.app, "amira@example.org")
        .await
        .unwrap();
    assert_eq!(signed_in_as(&server, &server.client).await, None);
    assert!(server.app.store().sessions.is_empty().await.unwrap());
    sign_up(
        &server,
        &server.new_client(),
        "amira@example.org",
        "a new start",
    )
    .await;
}

#[tokio::test]
async fn idle_guests_are_purged_with_their_sessions() {
    let server = TestServer::start().await;
    json(
        server
            .post_json("/api/auth/guest", json!({"firstName": "Old"}))
            .await,
        201,
    )
    .await;
    json(
        server
            .new_client()
            .post(server.url("/api/auth/guest"))
            .json(&json!({"firstName": "New"}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let old = server
        .app
        .store()
        .users
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|u| u.first_name == "Guest_Old")
        .unwrap();
    let long_ago = Utc::now() - chrono::Duration::days(31);
    server
        .app
        .store()
        .users
        .update_quietly(old.id, move |u| u.last_seen_at = long_ago)
        .await
        .unwrap();

    highchair::service::housekeeping::run_once(&server.app).await;
    let names: Vec<String> = server
        .app
        .store()
        .users
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.first_name)
        .collect();
    assert_eq!(names, ["Guest_New"]);
    assert_eq!(
        signed_in_as(&server, &server.client).await,
        None,
        "the purged guest's session is gone"
    );
}

#[tokio::test]
async fn passwords_and_tokens_never_reach_responses_or_logs() {
    let server = TestServer::start().await;
    let password = "unique-password-4711";
    let resp = server
        .post_json(
            "/api/auth/signup",
            signup_body(json!({"password": password})),
        )
        .await;
    let cookie = set_cookie(&resp);
    let token = cookie
        .split(';')
        .next()
        .unwrap()
        .trim_start_matches("highchair_session=")
        .to_string();
    let mut bodies = vec![resp.text().await.unwrap()];
    for path in ["/api/auth/session", "/api/profile"] {
        bodies.push(server.get(path).await.text().await.unwrap());
    }
    bodies.push(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": password}),
            )
            .await
            .text()
            .await
            .unwrap(),
    );
    bodies.push(
        server
            .post_json(
                "/api/auth/login",
                json!({"email": "amira@example.org", "password": "wrong-4711"}),
            )
            .await
            .text()
            .await
            .unwrap(),
    );
    for body in &bodies {
        assert!(
            !body.contains(password) && !body.contains(&token) && !body.contains("pbkdf2"),
            "{body}"
        );
    }
    let log = logs();
    assert!(log.contains("account created"), "logs are captured");
    for secret in [password, token.as_str(), "wrong-4711"] {
        let line = log
            .lines()
            .find(|l| l.contains(secret))
            .unwrap_or_default()
            .to_string();
        assert!(line.is_empty(), "{secret} appears in the log: {line}");
    }
}

#[tokio::test]
async fn signing_in_counts_as_being_seen() {
    let server = TestServer::start().await;
    let client = server.new_client();
    sign_up(&server, &client, "seen@example.org", "correct horse").await;
    let email = highchair::domain::email::Email::parse("seen@example.org").unwrap();
    let id = server
        .app
        .store()
        .users
        .get_by_email(&email)
        .await
        .unwrap()
        .unwrap()
        .id;
    let long_ago = chrono::Utc::now() - chrono::Duration::days(40);
    server
        .app
        .store()
        .users
        .update_quietly(id, move |u| u.last_seen_at = long_ago)
        .await
        .unwrap();
    let before = chrono::Utc::now();
    json(
        server
            .new_client()
            .post(server.url("/api/auth/login"))
            .json(&json!({"email": "seen@example.org", "password": "correct horse"}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let seen = server
        .app
        .store()
        .users
        .get(id)
        .await
        .unwrap()
        .unwrap()
        .last_seen_at;
    assert!(seen >= before, "LAST SEEN moved to the sign-in ({seen})");
}

/// Issue 26: behind a proxy that appends its own `X-Forwarded-For` line (HAProxy's `option
/// forwardfor`) and writes ports, only the first line was read, so a client picked its address
/// and made 14 guests where 10 an hour are allowed.
#[tokio::test]
async fn a_client_cannot_pick_its_address_through_a_proxy_that_appends_a_line() {
    let server =
        TestServer::start_with(|s| s.server.trusted_proxies = vec!["127.0.0.1".into()]).await;
    let mut made = 0;
    for i in 0..14 {
        let resp = server
            .new_client()
            .post(server.url("/api/auth/guest"))
            // The client's own line, a new address each time...
            .header("x-forwarded-for", format!("203.0.113.{i}"))
            // ...and the proxy's, with the client's real address and port.
            .header("x-forwarded-for", format!("198.51.100.7:{}", 40_000 + i))
            .json(&json!({"firstName": "Kim"}))
            .send()
            .await
            .unwrap();
        match resp.status().as_u16() {
            201 => made += 1,
            status => assert_eq!(status, 429, "guest {i}"),
        }
    }
    assert_eq!(made, 10, "the proxy's address counts, not the client's");
}
