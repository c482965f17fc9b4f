//! `/api/auth/*`: sign-up, sign-in, guests, sign-out, the current session, password resets.
//! The session token only ever travels in the HttpOnly cookie.

use chrono::{DateTime, Utc};
use poem::Request;
use poem::http::header::SET_COOKIE;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use super::client::ClientInfo;
use super::profile::Profile;
use super::session::{
    CurrentUser, clear_cookie, device_cookie, device_cookie_of, secure_cookies, session_cookie,
};
use super::{ApiError, ApiTags, number_input};
use crate::app::App;
use crate::auth::tokens::ResetLinkToken;
use crate::domain::user::{GuestDraft, SignupDraft, User};
use crate::service::accounts;
use crate::service::sessions::{self, SignedIn};

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SessionInfo {
    pub user: Profile,
    pub expires_at: DateTime<Utc>,
}

/// The current session: `user` and `expiresAt` are null when nobody is signed in.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SessionState {
    #[oai(nullable)]
    pub user: Option<Profile>,
    #[oai(nullable)]
    pub expires_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SignupRequest {
    #[oai(default)]
    pub first_name: String,
    #[oai(default)]
    pub last_name: String,
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub password: String,
    /// `mom` (default) or `dad`.
    #[oai(default)]
    pub role: String,
    #[oai(default)]
    pub accept_terms: bool,
}

#[derive(Debug, Object)]
pub struct LoginRequest {
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub password: String,
}

impl From<SignupRequest> for SignupDraft {
    fn from(b: SignupRequest) -> Self {
        SignupDraft {
            first_name: b.first_name,
            last_name: b.last_name,
            email: b.email,
            password: b.password,
            role: b.role,
            accept_terms: b.accept_terms,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct GuestRequest {
    #[oai(default)]
    pub first_name: String,
    /// 1 to 10; anything that is not a number counts as 1.
    pub children: Option<serde_json::Value>,
}

#[derive(Debug, Object)]
pub struct ForgotPasswordRequest {
    #[oai(default)]
    pub email: String,
}

#[derive(Debug, Object)]
pub struct Notice {
    pub message: String,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ResetTarget {
    pub first_name: String,
}

#[derive(Debug, Object)]
pub struct NewPassword {
    #[oai(default)]
    pub password: String,
}

/// Sign-in answers. Their cookies (the session, and after a password the browser's device
/// cookie) are two `Set-Cookie` headers, added by [`WithCookies`].
#[derive(ApiResponse)]
pub enum SignedInResponse {
    /// Signed in; the session cookie is set.
    #[oai(status = 200)]
    Ok(Json<SessionInfo>),
    /// Account created and signed in; the session cookie is set.
    #[oai(status = 201)]
    Created(Json<SessionInfo>),
}

/// A sign-in answer with its `Set-Cookie` headers (an `ApiResponse` header field holds one).
pub(super) type WithCookies = poem_openapi::payload::Response<SignedInResponse>;

#[derive(ApiResponse)]
pub enum SignedOutResponse {
    /// Signed out; the cookie is cleared.
    #[oai(status = 204)]
    Done(#[oai(header = "Set-Cookie")] String),
}

#[derive(ApiResponse)]
pub enum AcceptedResponse {
    /// How to get a password reset.
    #[oai(status = 202)]
    Accepted(Json<Notice>),
}

/// [`signed_in`] after a password: the browser's device cookie is renewed too.
async fn remembered(
    app: &App,
    client: &ClientInfo,
    known: &accounts::SignedInAs,
    created: bool,
) -> Result<WithCookies, ApiError> {
    signed_in(
        app,
        client,
        &known.user,
        Some(&known.device_cookie),
        created,
    )
    .await
}

/// Starts a session for `user` and answers with its cookie, and the device cookie if given.
pub(super) async fn signed_in(
    app: &App,
    client: &ClientInfo,
    user: &User,
    device: Option<&str>,
    created: bool,
) -> Result<WithCookies, ApiError> {
    let started = sessions::start(app, user).await?;
    let secure = secure_cookies(app, client);
    let body = Json(SessionInfo {
        user: Profile::from(user),
        expires_at: started.expires_at,
    });
    let answer = if created {
        SignedInResponse::Created(body)
    } else {
        SignedInResponse::Ok(body)
    };
    let mut response =
        WithCookies::new(answer).header(SET_COOKIE, session_cookie(&started, secure));
    if let Some(device) = device {
        response = response.header(SET_COOKIE, device_cookie(device, secure));
    }
    Ok(response)
}

#[derive(Default)]
pub struct AuthApi;

#[OpenApi(tag = "ApiTags::Auth", prefix_path = "/auth")]
impl AuthApi {
    /// Creates a parent account and signs it in. The first account on a server becomes its admin.
    #[oai(path = "/signup", method = "post", operation_id = "signUp")]
    async fn signup(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        body: Json<SignupRequest>,
    ) -> Result<WithCookies, ApiError> {
        let user = accounts::signup(&app, body.0.into(), &client.key()).await?;
        tracing::info!(user.id = %user.id, admin = user.is_admin, "account created");
        let known = accounts::remembered(&app, user, device_cookie_of(req)).await;
        signed_in(&app, &client, &known.user, Some(&known.device_cookie), true).await
    }

    /// Signs in with e-mail and password. Limited per IP and per account.
    #[oai(path = "/login", method = "post", operation_id = "logIn")]
    async fn login(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        body: Json<LoginRequest>,
    ) -> Result<WithCookies, ApiError> {
        let Json(b) = body;
        let key = client.key();
        let who = accounts::Client {
            key: &key,
            device_cookie: device_cookie_of(req),
        };
        let known = accounts::login(&app, &b.email, &b.password, who).await?;
        remembered(&app, &client, &known, false).await
    }

    /// Creates a guest account and signs it in.
    #[oai(path = "/guest", method = "post", operation_id = "startGuest")]
    async fn guest(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        body: Json<GuestRequest>,
    ) -> Result<WithCookies, ApiError> {
        let Json(b) = body;
        let draft = GuestDraft {
            first_name: b.first_name,
            children: number_input(b.children),
        };
        let user = accounts::start_guest(&app, draft, &client.key()).await?;
        signed_in(&app, &client, &user, None, true).await
    }

    /// Ends the current session (and clears the cookie even when there is none).
    #[oai(path = "/logout", method = "post", operation_id = "logOut")]
    async fn logout(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        user: CurrentUser,
    ) -> Result<SignedOutResponse, ApiError> {
        let secure = secure_cookies(&app, &client);
        if let Some(SignedIn { token_hash, .. }) = user.0 {
            sessions::end(&app, &token_hash).await?;
        }
        Ok(SignedOutResponse::Done(clear_cookie(secure)))
    }

    /// The signed-in user and when the session expires; both null when nobody is signed in
    /// (a probe, not an error: signed-out pages load without a failed request).
    #[oai(path = "/session", method = "get", operation_id = "getSession")]
    async fn session(&self, user: CurrentUser) -> Result<Json<SessionState>, ApiError> {
        Ok(Json(match user.0 {
            Some(me) => SessionState {
                user: Some(Profile::from(&me.user)),
                expires_at: Some(me.expires_at),
            },
            None => SessionState {
                user: None,
                expires_at: None,
            },
        }))
    }

    /// Explains how to get a password reset. Always 202; says nothing about the address.
    #[oai(
        path = "/forgot-password",
        method = "post",
        operation_id = "forgotPassword"
    )]
    async fn forgot_password(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        body: Json<ForgotPasswordRequest>,
    ) -> Result<AcceptedResponse, ApiError> {
        let message = accounts::forgot_password(&app, &client.key(), &body.0.email).await?;
        Ok(AcceptedResponse::Accepted(Json(Notice {
            message: message.here(),
        })))
    }

    /// Checks a password reset link; 404 when it is unknown, used or expired.
    #[oai(
        path = "/reset-password/:token",
        method = "get",
        operation_id = "checkResetLink"
    )]
    async fn check_reset(
        &self,
        app: Data<&App>,
        token: Path<String>,
    ) -> Result<Json<ResetTarget>, ApiError> {
        let user = accounts::reset_target(&app, &ResetLinkToken::from_client(&token.0)).await?;
        Ok(Json(ResetTarget {
            first_name: user.first_name,
        }))
    }

    /// Sets a new password through a reset link, ends all other sessions and signs in.
    #[oai(
        path = "/reset-password/:token",
        method = "post",
        operation_id = "resetPassword"
    )]
    async fn reset(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        token: Path<String>,
        body: Json<NewPassword>,
    ) -> Result<WithCookies, ApiError> {
        let user = accounts::reset_password(
            &app,
            &ResetLinkToken::from_client(&token.0),
            body.0.password,
        )
        .await?;
        let known = accounts::remembered(&app, user, device_cookie_of(req)).await;
        remembered(&app, &client, &known, false).await
    }
}
