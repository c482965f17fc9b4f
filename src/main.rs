fn main() -> std::process::ExitCode {
    highchair::cli::run()
}
